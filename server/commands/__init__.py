"""The commands: `splendor-server` and its admin commands, `splendor play`, workers."""
