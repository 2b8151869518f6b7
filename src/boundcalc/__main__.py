"""``python -m boundcalc``."""
from .cli import main

main()
