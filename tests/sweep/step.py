"""tests.run_all's steps for apmoff-sweep: its own tests (tests/sweep/test_sweep.py:
the table reader, configs, CMOS, images, screens, prompts, the judge and the tables,
without the ROM set), and the real sweep of the kit's machines
(tests/sweep/test_kit.py, minutes of 86Box), each recorded as the collector's step
records its TAP lines."""

from tests.collect import step as collect_step

UNIT = "tests.sweep.test_sweep"
KIT = "tests.sweep.test_kit"


def run_unit(tally):
    run_module(tally, UNIT, [])


def run_kit(tally, jobs):
    run_module(tally, KIT, ["-j", str(min(jobs, 2))])


def run_module(tally, module, args):
    collect_step.run_module(tally, module, args=args, suite="sweep", label="apmoff-sweep",
                            timeout=2400)
