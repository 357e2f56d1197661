"""Command modules used by the plugin-command tests."""
