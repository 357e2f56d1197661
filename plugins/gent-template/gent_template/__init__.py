"""gent-template: ``gent new-plugin``, which starts a plugin package from gent's template.

The template (one package skeleton and one working example per component kind, with tests
on gent's testing kit) ships inside this package; :mod:`gent_template.scaffold` renders it
(:func:`~gent_template.scaffold.render_plugin`) and :mod:`gent_template.command` is the
command. Its registration hook is in :mod:`gent_template.plugin`, found through the ``gent``
entry point ``template``. Nothing is imported here, so that loading the plugin costs nothing.
"""

__version__ = "0.1.0"
