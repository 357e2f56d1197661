"""The conformance kit: pytest base classes that check a plugin's component against its
contract.

A plugin's test module subclasses one of them and names only its component::

    from gent_core.testing import FormatConformance
    from my_plugin import MyFormat


    class TestMyFormat(FormatConformance):
        def make_format(self) -> MyFormat:
            return MyFormat()

* :class:`FormatConformance`: formatting and parsing round trips, streaming equal to one-shot
  parsing for every chunking, linear work on adversarial input (ratios of counted interpreter
  steps, never of times), only documented errors, the format's grammar accepting its own
  example, ``describe`` naming every section, stop sequences, truncation and observations,
  names matched case-insensitively, a repeated section read each time,
  ``NoSectionsFoundError`` for text without sections.
* :class:`ChainConformance`: the ``format_calls`` / ``parse`` round trip, a truncated call
  never returned, example calls that are concrete, valid and parse, and a grammar that
  accepts them and whose every output parses into valid calls.
* :class:`TerminationConformance`: example answers that parse and match the answer grammar,
  only documented errors, empty answers meaning "no answer yet".

The checks use hypothesis (a test dependency: install ``hypothesis`` with your test extras).
:data:`KIT_TOOLS` are the tools the chain checks call by default. :func:`profile_examples`
gives a plugin's own properties the same scaling with the profile in use.
"""

from gent_core.testing._conformance.chains import ChainConformance
from gent_core.testing._conformance.formats import FormatConformance
from gent_core.testing._conformance.settings import profile_examples
from gent_core.testing._conformance.steps import assert_linear, count_steps
from gent_core.testing._conformance.terminations import TerminationConformance
from gent_core.testing._conformance.tools import KIT_TOOLS

__all__ = [
    "KIT_TOOLS",
    "ChainConformance",
    "FormatConformance",
    "TerminationConformance",
    "assert_linear",
    "count_steps",
    "profile_examples",
]
