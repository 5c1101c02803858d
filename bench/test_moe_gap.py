"""Tests of bench/moe_gap.py's reading of a row: python3 -m unittest bench/test_moe_gap.py"""
import os, sys, unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import moe_gap as mg  # noqa: E402


class RestFactorTest(unittest.TestCase):
    def test_a_row_predicted_right_needs_no_growth(self):
        self.assertAlmostEqual(mg.rest_factor(8.27, 8.27, 5.35), 1.0, places=12)

    def test_the_exposed_communication_is_taken_as_priced(self):
        # GPT-OSS-120B on DGX-B200 at EP 64 (docs/plan.md): measured 10.18 s, predicted 8.27 s of which 5.35 s is the exposed
        # all-to-all over the NICs: the rest, 2.92 s, would have to be 4.83 s
        self.assertAlmostEqual(mg.rest_factor(10.18, 8.27, 5.35), 4.83 / 2.92, places=12)

    def test_a_row_predicted_slow_gives_a_factor_under_one(self):
        self.assertLess(mg.rest_factor(20.81, 23.74, 13.35), 1.0)

    def test_a_step_of_communication_only_is_refused(self):
        with self.assertRaises(ValueError):
            mg.rest_factor(1.0, 0.5, 0.5)


class PerMicroBatchAndPerStepTest(unittest.TestCase):
    def test_two_steps_give_the_time_per_micro_batch_and_per_step(self):
        # GPT-OSS-120B on 64 DGX-B200 at EP 8, MBS 4 (docs/plan.md): 25.11, GBS 512, 2 micro-batches, 3.99 s; 26.02.01,
        # GBS 1280, 5 micro-batches, 5.97 s: 0.66 s per micro-batch and 2.67 s per step
        x, f = mg.per_mb_and_per_step((3.99, 5.97), (2, 5))
        self.assertAlmostEqual(x, 1.98 / 3, places=12)
        self.assertAlmostEqual(f, 3.99 - 2 * 1.98 / 3, places=12)

    def test_the_order_of_the_rows_does_not_matter(self):
        self.assertEqual(mg.per_mb_and_per_step((3.99, 5.97), (2, 5)), mg.per_mb_and_per_step((5.97, 3.99), (5, 2)))

    def test_a_step_proportional_to_its_micro_batches_has_no_time_per_step(self):
        x, f = mg.per_mb_and_per_step((2.0, 5.0), (2, 5))
        self.assertAlmostEqual(x, 1.0, places=12)
        self.assertAlmostEqual(f, 0.0, places=12)

    def test_equal_micro_batch_counts_are_refused(self):
        with self.assertRaises(ValueError):
            mg.per_mb_and_per_step((3.0, 4.0), (5, 5))

    def test_a_reading_with_a_negative_part_is_refused(self):
        # more micro-batches, a shorter step: no non-negative time per micro-batch
        with self.assertRaises(ValueError):
            mg.per_mb_and_per_step((6.0, 5.0), (2, 5))
        # a step that grows faster than its micro-batches: a negative time per step
        with self.assertRaises(ValueError):
            mg.per_mb_and_per_step((1.0, 5.0), (2, 5))


if __name__ == "__main__":
    unittest.main()
