#!/usr/bin/env python3
"""Tests of bench/plan_calibration.py's pass/fail verdicts (issue 35 item 4: no false OOM, no rule rejecting a layout
that ran) and of the manifest it writes. Run: python3 -m unittest bench/test_plan_calibration.py (no build needed)."""
import os, sys, unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan_calibration as pc


def plan(stages, capacity, rank=1, findings=()):
    return {"current": {"rank": rank, "findings": list(findings),
                        "memory": {"capacity_bytes": capacity, "stages": [{"total_bytes": b} for b in stages]}}}


class VerdictTest(unittest.TestCase):
    def test_fits_and_valid_passes(self):
        self.assertEqual(pc.verdict(plan([70, 80], 80), []), (False, []))

    def test_fullest_stage_over_capacity_is_a_false_oom(self):
        # only the fullest stage counts: one stage over the GPU's capacity is enough
        self.assertEqual(pc.verdict(plan([70, 81], 80), []), (True, []))

    def test_check_errors_reject(self):
        self.assertEqual(pc.verdict(plan([1], 80), ["PAR008", "PAR004"]), (False, ["PAR004", "PAR008"]))

    def test_plan_ranking_the_layout_invalid_rejects_with_its_findings(self):
        self.assertEqual(pc.verdict(plan([1], 80, rank=None, findings=["PAR004"]), ["PAR004"]), (False, ["PAR004"]))
        self.assertEqual(pc.verdict(plan([1], 80, rank=None), []), (False, ["invalid"]))

    def test_a_plan_that_made_no_search_says_so_instead_of_invalid(self):
        p = plan([1], 80, rank=None)
        p["search_problem"] = "the job's global batch or GPU count is not known: no layout to compare"
        self.assertEqual(pc.verdict(p, []), (False, ["unsearched"]))

    def test_a_ranked_layout_s_notes_do_not_reject(self):
        # a ranked current layout lists its findings too (PAR006's bubble note): they are no rejection
        self.assertEqual(pc.verdict(plan([1], 80, rank=31, findings=["PAR006"]), []), (False, []))


class CheckErrorsTest(unittest.TestCase):
    def test_only_error_level_findings_by_file(self):
        report = {"findings": [
            {"level": "error", "ruleId": "PAR004", "location": {"file": "bench/generated/plan/a.yaml"}},
            {"level": "warning", "ruleId": "MEM003", "location": {"file": "bench/generated/plan/a.yaml"}},
            {"level": "error", "ruleId": "PAR004", "location": {"file": "bench/generated/plan/a.yaml"}},
            {"level": "error", "ruleId": "NET001", "location": {"file": "b.yaml"}},
            {"level": "note", "ruleId": "PAR006", "location": {"file": "c.yaml"}}]}
        self.assertEqual(pc.check_errors(report), {"a.yaml": ["PAR004"], "b.yaml": ["NET001"]})


class SummaryTest(unittest.TestCase):
    def test_counts_and_ids(self):
        self.assertEqual(pc.summary("T", [(True, []), (False, ["PAR004"]), (True, ["PAR008", "PAR004"]), (False, [])]),
                         "T: false OOM: 2 rows; rejected: 2 rows (PAR004, PAR008)")
        self.assertEqual(pc.summary("T", [(False, [])]), "T: false OOM: 0 rows; rejected: 0 rows")


class TableRunTest(unittest.TestCase):
    def test_the_calibration_table_runs_alone_with_the_full_run_s_defaults(self):
        label, defaults = pc.table_run("bench/plan/nemo-h100-fp8.tsv")
        self.assertEqual("CALIBRATION (fitted)", label)
        self.assertEqual(pc.NEMO_DEFAULTS, defaults)
        self.assertEqual("0", defaults["zero"])  # the key whose absence made `--table nemo-h100-fp8.tsv` fail (KeyError)

    def test_a_validation_table_keeps_its_own_defaults_and_a_copy_of_them(self):
        label, defaults = pc.table_run("/elsewhere/blackwell.tsv")
        self.assertEqual("VALIDATION (not fitted)", label)
        self.assertEqual({"bytes": "16"}, defaults)
        defaults["bytes"] = "x"
        self.assertEqual({"bytes": "16"}, pc.TABLE_DEFAULTS["blackwell.tsv"])
        self.assertEqual(("VALIDATION (not fitted)", {"bytes": ""}), pc.table_run("torchtitan.tsv"))


class ManifestTest(unittest.TestCase):
    ROW = {"name": "X", "gpu": "H100-SXM5-80GB", "dtype": "bf16", "nic_gbps": "400", "nics": "8", "protocol": "infiniband",
           "layers": "32", "hidden": "4096", "heads": "32", "kv_heads": "8", "ffn": "14336", "vocab": "128256",
           "gated": "true", "tied": "false", "seq": "8192", "gpus": "16", "gbs": "64", "mbs": "1", "tp": "2", "pp": "1",
           "cp": "1", "vp": "1", "zero": "1", "distributed": "true", "recompute": "none", "bytes": ""}

    def test_each_manifest_names_its_own_cluster_and_job(self):
        m = pc.manifest(dict(self.ROW), "t-03-X")
        self.assertIn("kind: cluster\nname: t-03-X\n", m)
        self.assertIn("name: t-03-x\ncluster: t-03-X\n", m)

    def test_roce_rows_state_pfc(self):
        m = pc.manifest(dict(self.ROW, protocol="roce"), "k")
        self.assertIn("fabric: { type: roce, topology: rail-optimized, roce: { pfc: { enabled: true, priority: 3 } } }", m)
        self.assertIn("fabric: { type: infiniband, topology: rail-optimized }", pc.manifest(dict(self.ROW), "k"))


    def test_moe_validation_rows_state_what_the_recipes_set(self):
        # Megatron-Bridge's MoE presets reduce gradients in bf16 (grad_reduce_in_fp32 = False): 16 bytes per parameter
        self.assertEqual(pc.TABLE_DEFAULTS["moe-validation.tsv"], {"bytes": "16"})
        moe = dict(self.ROW, experts="128", top_k="8", ep="32", etp="1", dispatcher="alltoall", overlap_a2a="true",
                   tp_overlap="false")
        m = pc.manifest(moe, "k")
        self.assertIn("  moe: { dispatcher: alltoall, overlap_a2a: true }", m)
        self.assertIn("sequence_parallel: true, ep: 32, etp: 1, tp_comm_overlap: false }", m)
        # columns left empty write nothing: the estimate's defaults (no overlap, the family's tp overlap share)
        m = pc.manifest(dict(moe, overlap_a2a="", tp_overlap=""), "k")
        self.assertIn("  moe: { dispatcher: alltoall }", m)
        self.assertNotIn("tp_comm_overlap", m)

    def test_hybrid_rows_write_the_pattern_and_the_mixer_sizes(self):
        m = pc.manifest(dict(self.ROW, hybrid="MEM*E", mamba_heads="64", mamba_head_dim="64", mamba_state="128", mamba_groups=""), "k")
        self.assertIn('  hybrid: { pattern: "MEM*E", mamba_num_heads: 64, mamba_head_dim: 64, mamba_state_dim: 128 }\n', m)
        self.assertNotIn("hybrid", pc.manifest(dict(self.ROW), "k"))

    def test_a_pipeline_layout_column_is_the_manifest_s_pipeline_layout(self):
        m = pc.manifest(dict(self.ROW, pp="4", vp="4", pipeline_layout="Et*4|(t*4|)*14tmL"), "k")
        self.assertIn(', pipeline_layout: "Et*4|(t*4|)*14tmL" }', m)
        self.assertNotIn("pipeline_layout", pc.manifest(dict(self.ROW), "k"))

    def test_validation_2026b_rows_parse_and_state_their_own_bytes(self):
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "validation-2026b.tsv"), {"bytes": ""})
        self.assertEqual(14, len(rows))
        self.assertTrue(all(r["bytes"] == "16" and r["metric"] == "tokens_per_s_per_gpu" for r in rows))
        by = {(r["name"], r["source"]): r for r in rows}
        self.assertEqual("Et*4|(t*4|)*14tL", by[("Kimi-K2", "bridge-26.04.01-gb300")]["pipeline_layout"])
        self.assertEqual(52, len(by[("Nemotron-3-Nano", "bridge-26.04.01-h100")]["hybrid"]))
        # the 26.04.01 B300 run moved to HybridEP (Megatron-Bridge issue #3399, pull #3490; the table's header)
        q = by[("Qwen3-235B-A22B", "bridge-26.04.01-b300")]
        self.assertEqual(("flex", "hybridep"), (q["dispatcher"], q["flex_backend"]))
        self.assertIn("dispatcher: flex, grouped_gemm: true, flex_backend: hybridep }", pc.manifest(q, "k"))

    def test_gpt_oss_26_08_rows_state_the_a2a_overlap_their_recipes_set(self):
        # every stored version of the GPT-OSS-120B MXFP8 recipes for these layouts sets overlap_moe_expert_parallel_comm; the
        # GB300 one (EP 16) runs the flex dispatcher with HybridEP (the table's header, task gptoss)
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "validation-2026b.tsv"), {"bytes": ""})
        by = {r["source"]: r for r in rows if r["name"] == "GPT-OSS-120B"}
        self.assertEqual({"bridge-26.08-gb300", "bridge-26.08-gb200"}, set(by))
        self.assertEqual(("true", "true"), (by["bridge-26.08-gb300"]["overlap_a2a"], by["bridge-26.08-gb200"]["overlap_a2a"]))
        self.assertEqual(("flex", "hybridep", "16"), tuple(by["bridge-26.08-gb300"][c] for c in ("dispatcher", "flex_backend", "ep")))
        self.assertEqual(("alltoall", "64"), (by["bridge-26.08-gb200"]["dispatcher"], by["bridge-26.08-gb200"]["ep"]))
        self.assertIn("overlap_a2a: true", pc.manifest(by["bridge-26.08-gb200"], "k"))

    def test_moe_validation_table_rows_parse_with_the_overlap_columns(self):
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "moe-validation.tsv"), pc.TABLE_DEFAULTS["moe-validation.tsv"])
        by = {(r["name"], r["source"]): r for r in rows}
        self.assertEqual(by[("Qwen3-235B-A22B", "mb-26.02-h100")]["overlap_a2a"], "true")
        self.assertEqual(by[("GPT-OSS-120B", "mb-26.02-gb200")]["overlap_a2a"], "true")
        self.assertEqual(by[("GPT-OSS-120B", "mb-26.02-b200")]["dispatcher"], "alltoall")
        self.assertEqual(by[("Qwen3-30B-A3B", "mb-25.11-h100")]["vp"], "12")
        self.assertTrue(all(r["bytes"] == "16" for r in rows))

    def test_qwen3_235b_b300_26_02_row_states_the_a2a_overlap_and_vp_it_ran(self):
        # the B300 presets before Megatron-Bridge pull #2669 (2026-03-05, "disabling VP and moe_a2a_overlap") ran pp 8, vp 4,
        # moe_a2a_overlap True: the 26.02 table's VP 4 is that preset; the B200 and GB200 26.02 rows ran neither
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "moe-validation.tsv"), pc.TABLE_DEFAULTS["moe-validation.tsv"])
        blackwell = {r["source"]: r for r in rows if r["name"] == "Qwen3-235B-A22B" and r["source"].startswith("mb-26.02-")
                     and r["source"] != "mb-26.02-h100"}
        self.assertEqual(["mb-26.02-b200", "mb-26.02-b300", "mb-26.02-gb200"], sorted(blackwell))
        b300 = pc.manifest(blackwell["mb-26.02-b300"], "k")
        self.assertIn("  moe: { expert_ffn_hidden_size: 1536, dispatcher: alltoall, grouped_gemm: true, overlap_a2a: true }\n", b300)
        self.assertEqual("4", blackwell["mb-26.02-b300"]["vp"])
        for source in ("mb-26.02-b200", "mb-26.02-gb200"):
            self.assertNotIn("overlap_a2a", pc.manifest(blackwell[source], "k"), source)

    def test_qwen3_235b_b200_25_11_row_states_the_a2a_overlap_it_ran(self):
        # Megatron-Bridge pull #1760 turned moe_a2a_overlap off after 25.11 (issue #1705): the 25.11 DGX-B200 row ran it on;
        # no other Qwen3-235B-A22B row of validation-2026.tsv states it
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "validation-2026.tsv"), {"bytes": ""})
        qwen = {r["source"]: pc.manifest(r, "k") for r in rows if r["name"] == "Qwen3-235B-A22B"}
        self.assertEqual(4, len(qwen))
        for source, m in qwen.items():
            if source == "bridge-25.11-b200":
                self.assertIn("  moe: { expert_ffn_hidden_size: 1536, dispatcher: alltoall, grouped_gemm: true, overlap_a2a: true }\n", m)
            else:
                self.assertNotIn("overlap_a2a", m, source)

    def test_nemo_mixtral_rows_write_the_token_drop_their_recipes_set(self):
        # NeMo's Mixtral performance recipes add MegatronTokenDropCallback: capacity factor 1.0, padded to capacity
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "validation-2025.tsv"), {"bytes": ""})
        mixtral = [r for r in rows if r["name"].startswith("Mixtral") and r["source"].startswith("nemo-")]
        self.assertEqual(sorted((r["name"], r["source"]) for r in mixtral),
                         [("Mixtral-8x22B", "nemo-25.02-b200"), ("Mixtral-8x22B", "nemo-25.04-gb200"),
                          ("Mixtral-8x7B", "nemo-25.02-b200"), ("Mixtral-8x7B", "nemo-25.04-gb200")])
        for r in mixtral:
            self.assertIn("  moe: { dispatcher: alltoall, grouped_gemm: true, capacity_factor: 1.0, pad_to_capacity: true }\n",
                          pc.manifest(r, "k"), r["source"])

    def test_gpt_oss_rows_write_the_experts_clamp_and_biases(self):
        # every GPT-OSS row (both tables) states its provider's activation_func_clamp_value 7.0 and add_bias_linear True;
        # no other row does, so ExpertPasses prices GPT-OSS only
        for table in ("moe-validation.tsv", "validation-2026.tsv"):
            rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", table), pc.TABLE_DEFAULTS.get(table, {}))
            for r in rows:
                m = pc.manifest(r, "k")
                if r["name"].startswith("GPT-OSS"):
                    self.assertIn("activation_clamp: 7.0, expert_bias: true }", m, r["source"])
                else:
                    self.assertNotIn("activation_clamp", m, r["source"])
                    self.assertNotIn("expert_bias", m, r["source"])
            self.assertTrue(any(r["name"].startswith("GPT-OSS") for r in rows), table)

    def test_moe_validation_b300_rows_are_the_hgx_control_of_the_b200_rows(self):
        # the 26.02 DGX-B300 rows: an 8-GPU HGX node with x86 hosts like DGX-B200, 8 x ConnectX-8 800 Gb/s per node;
        # Qwen3-30B-A3B differs from its B200 row only in the micro-batch (8 vs 1), as the table states
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "moe-validation.tsv"), pc.TABLE_DEFAULTS["moe-validation.tsv"])
        by = {(r["name"], r["source"]): r for r in rows}
        b300 = [r for r in rows if r["source"] == "mb-26.02-b300"]
        self.assertEqual(sorted(r["name"] for r in b300), ["DeepSeek-V3", "GPT-OSS-120B", "Qwen3-235B-A22B", "Qwen3-30B-A3B"])
        for r in b300:
            self.assertEqual((r["gpu"], r["nic"], r["nic_gbps"], r["nics"], r.get("per_node") or "8"),
                             ("B300-SXM-270GB", "ConnectX-8", "800", "8", "8"))
        q300, q200 = by[("Qwen3-30B-A3B", "mb-26.02-b300")], by[("Qwen3-30B-A3B", "mb-26.02-b200")]
        self.assertEqual((q300["mbs"], q200["mbs"], q300["measured"]), ("8", "1", "29521"))
        diff = {k for k in q200 if q200[k] != q300[k]}
        self.assertEqual(diff, {"source", "gpu", "nic_gbps", "nic", "mbs", "measured"})
        self.assertIn("- {{ model: ConnectX-8, count: 8, speed: 800 Gb/s".replace("{{", "{"), pc.manifest(q300, "k"))


class FitTest(unittest.TestCase):
    """--fit and --fit-moe: least squares on relative errors over a rounding lattice (no build needed: the objective here
    is a function, not the estimate)."""
    SPEC = {"a": (0.01, 0.0, 1.0), "b": (1.0, 0.0, 40.0)}

    def test_the_unrounded_optimum_and_its_rounding_of_a_quadratic(self):
        f = lambda v: (v["a"] - 0.6378) ** 2 * 1e4 + (v["b"] - 7.3) ** 2
        fine, _ = pc.nelder_mead(f, {"a": 0.62, "b": 9}, self.SPEC)
        self.assertAlmostEqual(fine["a"], 0.6378, places=4)
        self.assertAlmostEqual(fine["b"], 7.30, places=3)
        rounded, best = pc.rounded_fit(f, fine, self.SPEC)
        self.assertEqual((round(rounded["a"], 9), round(rounded["b"], 9)), (0.64, 7.0))
        self.assertAlmostEqual(best, f({"a": 0.64, "b": 7.0}), places=12)

    def test_a_correlated_valley_is_followed_to_its_optimum(self):
        # the optimum lies along a + b/100 = 0.7 with b pulled to 5: one constant at a time stalls short of it from (0.62, 9)
        f = lambda v: (v["a"] + v["b"] / 100 - 0.7) ** 2 * 1e4 + (v["b"] - 5) ** 2 * 1e-2
        fine, _ = pc.nelder_mead(f, {"a": 0.62, "b": 9}, self.SPEC)
        self.assertAlmostEqual(fine["b"], 5.0, delta=0.01)
        self.assertAlmostEqual(fine["a"], 0.65, delta=0.0001)

    def test_the_rounding_is_the_best_lattice_point_not_each_constant_rounded_alone(self):
        # along a valley a + b/100 = 0.705 the nearest multiples (0.65, 5) miss it by 0.005; (0.66, 5) or (0.65, 6)
        # misses too, the lattice's best is found by trying the combinations
        f = lambda v: (v["a"] + v["b"] / 100 - 0.705) ** 2 * 1e4 + (v["b"] - 5.4) ** 2 * 1e-3
        fine, _ = pc.nelder_mead(f, {"a": 0.62, "b": 9}, self.SPEC)
        rounded, best = pc.rounded_fit(f, fine, self.SPEC)
        every = min(f({"a": i / 100, "b": float(j)}) for i in range(101) for j in range(41))
        self.assertAlmostEqual(best, every, places=12)

    def test_the_search_keeps_each_constant_in_its_range(self):
        f = lambda v: (v["a"] - 2.0) ** 2 + (v["b"] + 3) ** 2
        fine, _ = pc.nelder_mead(f, {"a": 0.62, "b": 9}, self.SPEC)
        self.assertEqual((round(fine["a"], 9), round(fine["b"], 9)), (1.0, 0.0))
        out, _ = pc.rounded_fit(f, fine, self.SPEC)
        self.assertEqual((round(out["a"], 9), round(out["b"], 9)), (1.0, 0.0))

    def test_relative_errors_read_each_row_s_own_metric(self):
        rows = [{"metric": "tokens_per_s_per_gpu", "tokens_per_s_per_gpu": "100"}, {"metric": "mfu", "measured": "0.5"},
                {"metric": "step_s", "measured": "2"}]
        pred = [(110, 0, 0, 0), (0, 0, 0.45, 0), (0, 0, 0, 3)]
        self.assertEqual([round(e, 9) for e in pc.relative_errors(rows, pred)], [0.1, -0.1, 0.5])
        self.assertAlmostEqual(pc.sse([0.1, -0.2]), 0.05)

    def test_the_moe_fit_reads_the_two_figures_only(self):
        rows = pc.rows(os.path.join(pc.ROOT, "bench", "plan", "moe.tsv"), {"bytes": ""})
        self.assertEqual(sorted(r["source"] for r in rows if pc.moe_fitting_row(r)), ["folding-57b", "folding-8x22b"])
        self.assertTrue(any(not pc.moe_fitting_row(r) for r in rows))

    def test_the_dense_fit_s_constants_are_read_from_the_catalog_row_of_the_family(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as fh:
            fh.write("compute:\n  efficiencies:\n    - families: [A100, A30]\n      traffic: 9\n"
                     "    - families: [H100, H200]\n      gemm_fp8: 0.62   # note\n      traffic: 8\n      source: \"x\"\n")
        try:
            self.assertEqual(pc.catalog_values(["gemm_fp8", "traffic"], "H200", fh.name), {"gemm_fp8": 0.62, "traffic": 8.0})
            self.assertEqual(pc.catalog_values(["traffic"], "A30", fh.name), {"traffic": 9.0})
            with self.assertRaises(SystemExit):
                pc.catalog_values(["layer_s"], "H100", fh.name)
        finally:
            os.unlink(fh.name)

    def test_every_dense_fit_constant_is_stated_in_hopper_s_catalog_row(self):
        self.assertEqual(set(pc.catalog_values(list(pc.DENSE_FIT))), set(pc.DENSE_FIT))
        self.assertEqual(set(pc.catalog_values(list(pc.MOE_FIT))), {"expert_gemm_s"})


if __name__ == "__main__":
    unittest.main()
