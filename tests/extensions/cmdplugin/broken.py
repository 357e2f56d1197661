"""A plugin command module that fails to import."""

raise ImportError("this command's dependency is missing")
