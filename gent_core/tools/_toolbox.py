"""Tools that share configuration or state: :class:`Toolbox`.

::

    class Files(Toolbox):
        def __init__(self, root: Path) -> None:
            self.root = root

        @tool
        def read(self, path: str) -> str:
            \"\"\"Read a text file.\"\"\"
            return (self.root / path).read_text()

    files = Files(Path("/srv/data"))
    agent_tools = files.tools()          # [<FunctionTool 'read'>], bound to ``files``

The methods' schemas and validation models are built once, when the class is defined;
:meth:`Toolbox.tools` only binds them to the instance. Sync methods run in worker threads,
possibly several at once: guard shared mutable state with a lock.
"""

from __future__ import annotations

from gent_core.tools._function import FunctionTool

__all__ = ["Toolbox"]


class Toolbox:
    """A base class whose ``@tool``-decorated methods become tools bound to the instance.

    A method tool is also bound when read from an instance (``files.read``), so it can be
    called directly: ``files.read("notes.txt")``.
    """

    def tools(self, *, prefix: str = "") -> list[FunctionTool]:
        """Return the instance's tools, in definition order (base classes first).

        A subclass may override a tool method (the override keeps the base's position) or
        hide it by assigning another value to its name.

        Args:
            prefix: Prepended to every tool name (``"docs_"`` gives ``docs_read``), to use
                two instances of one toolbox in the same agent.
        """
        found: dict[str, FunctionTool] = {}
        for klass in reversed(type(self).__mro__):
            for attribute, value in vars(klass).items():
                if isinstance(value, FunctionTool) and value.is_method:
                    found[attribute] = value
                elif attribute in found:
                    del found[attribute]
        return [
            method.bind(self, name=f"{prefix}{method.name}" if prefix else None)
            for method in found.values()
        ]
