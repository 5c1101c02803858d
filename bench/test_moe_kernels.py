"""Tests of bench/moe_kernels.py's fits: python3 -m unittest bench/test_moe_kernels.py"""
import os, sys, unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import moe_kernels as mk  # noqa: E402


class FitTest(unittest.TestCase):
    def test_free_fit_recovers_rate_and_fixed_time(self):
        # two calls of the same FLOPs at 700 TFLOP/s plus 3 µs per GEMM: 8 and 16 GEMMs
        f = 1.0e11
        points = [(g, f, f / 700e12 + g * 3e-6) for g in (8, 16)]
        r, c = mk.fit_free(points)
        self.assertAlmostEqual(r / 1e12, 700.0, places=6)
        self.assertAlmostEqual(c * 1e6, 3.0, places=6)

    def test_free_fit_needs_two_group_counts(self):
        self.assertIsNone(mk.fit_free([(8, 1e11, 1e-4), (8, 2e11, 2e-4)]))

    def test_fixed_fit_is_least_squares_over_the_residuals(self):
        # residuals 8 µs at 8 GEMMs and 32 µs at 16: c = (8·8 + 16·32)/(64 + 256) = 1.8 µs
        points = [(8, 0.0, 10e-6 + 8e-6), (16, 0.0, 10e-6 + 32e-6)]
        self.assertAlmostEqual(mk.fit_fixed(points, [10e-6, 10e-6]) * 1e6, 1.8, places=9)

    def test_transformer_engine_27_pair(self):
        # bench/plan/moe-kernels.tsv's TE 2.7 multi-stream rows (PR #2045): 627.903 and 553.945 TFLOP/s, equal FLOPs
        rows = [r for r in mk.rows(os.path.join(mk.ROOT, "bench", "plan", "moe-kernels.tsv"))
                if r["set"] == "H100 bf16 TE 2.7 multi-stream cuBLAS"]
        self.assertEqual([int(r["groups"]) for r in rows], [8, 16])
        points = []
        for r in rows:
            g, m, n, k = (int(r[c]) for c in ("groups", "m", "n", "k"))
            flops = 2.0 * g * m * n * k
            points.append((g, flops, flops / (float(r["measured"]) * 1e12)))
        r, c = mk.fit_free(points)
        self.assertAlmostEqual(r / 1e12, 725.0, delta=0.5)
        self.assertAlmostEqual(c * 1e6, 2.74, delta=0.005)

    def test_passes_multiply_a_call(self):
        # a forward + backward row (passes 3) is three calls of the same g GEMMs: 3× the FLOPs, GEMMs and price
        hw = dict(pg=1.0e15, hbm=6.4e12, kernel=1e-5)
        f1, g1, b1 = mk.call(hw, "bf16", 8, 16000, 2048, 7168)
        f3, g3, b3 = mk.call(hw, "bf16", 8, 16000, 2048, 7168, 3)
        self.assertEqual((f3, g3), (3 * f1, 24))
        self.assertAlmostEqual(b3, 3 * b1, places=15)
        self.assertEqual(mk.passes({"passes": ""}), 1)
        self.assertEqual(mk.passes({"passes": "3"}), 3)

    def test_torchao_b200_bf16_pair_cannot_resolve_a_fixed_time(self):
        # bench/plan/moe-kernels.tsv's torchao B200 bf16 fwd+bwd rows: each shape's free fit lands on a rate near a third of
        # the 2,250 TFLOP/s peak and a per-GEMM time of +64 µs on one shape, -205 µs on the other (docs/plan.md, task blackmoe)
        fits = {}
        for name in ("B200 bf16 torch._grouped_mm fwd+bwd N2048 K7168", "B200 bf16 torch._grouped_mm fwd+bwd N8192 K5120"):
            points = []
            for r in mk.rows(os.path.join(mk.ROOT, "bench", "plan", "moe-kernels.tsv")):
                if r["set"] != name:
                    continue
                g, m, n, k, p = int(r["groups"]), int(r["m"]), int(r["n"]), int(r["k"]), mk.passes(r)
                points.append((p * g, p * 2.0 * g * m * n * k, float(r["measured"]) * 1e-3))
            self.assertEqual([g for g, _, _ in points], [3, 6, 12, 24])
            fits[name] = mk.fit_free(points)
        r1, c1 = fits["B200 bf16 torch._grouped_mm fwd+bwd N2048 K7168"]
        r2, c2 = fits["B200 bf16 torch._grouped_mm fwd+bwd N8192 K5120"]
        self.assertAlmostEqual(r1 / 1e12, 807, delta=1)
        self.assertAlmostEqual(c1 * 1e6, 64.5, delta=0.1)
        self.assertAlmostEqual(r2 / 1e12, 764, delta=1)
        self.assertAlmostEqual(c2 * 1e6, -205.4, delta=0.1)


if __name__ == "__main__":
    unittest.main()
