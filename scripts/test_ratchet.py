#!/usr/bin/env python3
"""The ratchet's parsing and comparison (scripts/ratchet.py); no timing here."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import ratchet  # noqa: E402


class Ratchet(unittest.TestCase):
    def test_a_run_is_read_line_by_line_and_the_last_value_of_a_figure_wins(self):
        lines = ['{"figure": "a s", "value": 1.5}', "", "not json", '{"figure": "b"}',
                 '{"figure": "a s", "value": 2}', '{"figure": "c s", "value": NaN}']
        self.assertEqual(ratchet.read_run(lines), {"a s": 2.0})

    def test_only_figures_more_than_ten_per_cent_worse_are_listed(self):
        recorded = {"a": 1.0, "b": 1.0, "c": 1.0, "gone": 3.0}
        now = {"a": 1.10, "b": 1.25, "c": 0.5, "new": 1.0}
        worse, new, gone = ratchet.compare(recorded, now)
        self.assertEqual([(n, round(c, 2)) for n, _, _, c in worse], [("b", 0.25)])
        self.assertEqual((new, gone), (["new"], ["gone"]))

    def test_a_figure_recorded_as_zero_is_worse_when_it_grows(self):
        worse, _, _ = ratchet.compare({"longest task ms": 0.0}, {"longest task ms": 54.0})
        self.assertEqual([n for n, *_ in worse], ["longest task ms"])


if __name__ == "__main__":
    unittest.main()
