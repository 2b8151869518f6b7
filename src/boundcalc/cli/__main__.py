"""``python -m boundcalc.cli``."""
from . import main

main()
