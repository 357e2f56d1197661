"""gent-template: a gent plugin supplying the ``template`` TEMPLATE-KIND.

Its registration hooks are in :mod:`gent_template.plugin`, found
through the ``gent`` entry point ``template``.
"""

__version__ = "0.1.0"
