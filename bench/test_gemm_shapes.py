"""Tests of bench/gemm_shapes.py: python3 -m unittest bench/test_gemm_shapes.py"""
import os, sys, unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_shapes as gs  # noqa: E402

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plan", "gemm-shapes.tsv")
H100_96 = (683.1e12, 1.92e12)   # 990 × 0.69 TFLOP/s, 2.4 × 0.8 TB/s


class RateTest(unittest.TestCase):
    def setUp(self):
        self.grid = gs.load(TABLE)

    def test_table_holds_the_b4_m4096_grid_and_its_large_square(self):
        self.assertEqual(24, len(self.grid))
        self.assertEqual(793.1, self.grid[(4096, 4096)])

    def test_a_grid_point_is_its_entry(self):
        self.assertEqual(619.9, gs.rate(self.grid, 4096, 512))

    def test_between_two_contractions_it_interpolates_on_log_k(self):
        # k 1,792 between 1,024 (725.5) and 2,048 (764.6): ln(1.75)/ln 2 = 0.8074 of the way
        self.assertAlmostEqual(725.5 + 0.8074 * (764.6 - 725.5), gs.rate(self.grid, 4096, 1792), places=1)

    def test_past_the_table_it_takes_the_largest_size(self):
        self.assertEqual(self.grid[(4096, 1024)], gs.rate(self.grid, 8192, 1024))

    def test_a_share_above_the_large_square_is_one(self):
        # n 1,792 at k 4,096 interpolates to ~795 TFLOP/s, above 793.1
        self.assertEqual(1.0, gs.share(self.grid, 1792, 4096, 98304, *H100_96))

    def test_a_128_wide_gemm_is_priced_at_the_hbm_roofline(self):
        # 2·M·128·4096 FLOPs over 2·(M·4096 + M·128 + 128·4096) bytes at M = 98,304: 524,288 / 4,229.3 = 124.0 FLOP a
        # byte; × 1.92 TB/s = 238.0 TFLOP/s, 0.348 of 683.1
        self.assertAlmostEqual(0.348, gs.share(self.grid, 128, 4096, 98304, *H100_96), places=3)


class LayerTest(unittest.TestCase):
    def setUp(self):
        self.grid = gs.load(TABLE)

    def test_the_figures_docs_plan_quotes(self):
        for (_, hidden, q, kv, ffn, tp, rows), want in zip(gs.CASES, (1.080, 1.032, 1.001)):
            _, factor = gs.layer(self.grid, hidden, q, kv, ffn, tp, rows, *H100_96)
            self.assertAlmostEqual(want, factor, places=3)

    def test_a_layer_of_large_squares_is_unchanged(self):
        # every linear 4,096 × 4,096 (or wider) on every rank: each share 1, the factor 1
        _, factor = gs.layer(self.grid, 4096, 4096, 4096, 4096, 1, 98304, *H100_96)
        self.assertEqual(1.0, factor)


if __name__ == "__main__":
    unittest.main()
