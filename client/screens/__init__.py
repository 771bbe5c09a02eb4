"""The app's screens, one a file: lobby, setup, table, and the dialogs over them."""
