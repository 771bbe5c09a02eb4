"""Widgets of the table and the lobby: they render what their screen gives them."""
