"""The decision procedure behind ``verify``, ``monotone``, ``require`` and every ``check``
kind, one module per layer (see :mod:`.decide` for the orchestrator). Import the module
you need (``from boundcalc.prover.decide import decide_relation``)."""

__all__: list[str] = []     # nothing here: import the layer you need
