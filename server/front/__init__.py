"""The SSH front: the door, one app per session, its terminal driver and frames."""
