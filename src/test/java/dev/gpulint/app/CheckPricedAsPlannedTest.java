package dev.gpulint.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.diagnose.Fixtures;
import dev.gpulint.lint.RunOutcome;
import dev.gpulint.plan.Planner;
import dev.gpulint.plan.search.Candidate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * check prices a job with what `gpulint plan` prices it with besides the catalog: an nccl-tests run linked to the job's
 * node group and the project's {@code plan:} efficiencies reach check's estimate of the job (RunOutcome.estimates, what
 * the layout fix and diagnose start from) and the layout fix's plan (its title's tokens/s), and change them exactly as
 * they change the plan's.
 */
class CheckPricedAsPlannedTest {

    /** Two DGX H100 nodes; 36 heads over tp 8 (PAR005), so check offers the plan's best layout as a fix. */
    private static final String FILES = "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 2\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n    nvlink: { switch: true }\n"
            + "    nics:\n      - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }\n---\n"
            + "kind: training_job\nname: j\ncluster: c\nnode_group: g\nnodes: 2\n"
            + "model:\n  parameters: 8B\n  dtype: bf16\n  layers: 32\n  attention_heads: 36\n  kv_heads: 4\n"
            + "  hidden_size: 4608\n  ffn_hidden_size: 12288\n  vocab_size: 32000\n  seq_length: 4096\n"
            + "parallelism: { tp: 8, pp: 1, dp: 2, virtual_pp: 1 }\n"
            + "batch: { micro_batch_size: 1, global_batch_size: 64 }\noptimizer: { distributed: true }\n";

    private static final Pattern TOKENS = Pattern.compile("\\(([0-9]+) tokens/s per GPU by its estimate\\)");

    /** What check and plan make of the files under {@code config}. */
    private record Both(Estimate checkEstimate, Estimate planEstimate, long fixTokens, double planTokens) {}

    private static Both run(Path dir, String config, String... evidence) throws IOException {
        Files.writeString(dir.resolve("j.yaml"), FILES);
        Path conf = dir.resolve(".gpulint.yaml");
        Files.writeString(conf, config);
        if (evidence.length > 0) Files.writeString(dir.resolve(evidence[0]), evidence[1]);
        RunOutcome check = Checks.check(new Project(dir).config(conf).paths(List.of(dir.toString())).request());
        List<JobEstimate> estimates = check.estimates();
        assertEquals(1, estimates.size());
        Finding par005 = check.result().findings().stream().filter(f -> "PAR005".equals(f.ruleId())).findFirst()
                .orElseThrow(() -> new AssertionError(check.result().findings().toString()));
        List<Fix> layoutFixes = par005.fixes().stream().filter(x -> x.title().startsWith("set ")).toList();
        assertEquals(1, layoutFixes.size(), par005.fixes().toString());
        Fix fix = layoutFixes.get(0);
        Matcher m = TOKENS.matcher(fix.title());
        assertTrue(m.find(), fix.title());

        Checks.Planned planned = Checks.plan(new Project(dir).config(conf).paths(List.of(dir.toString())).request(), "j", 0, 0);
        assertNull(planned.plan().problem());
        Planner.Plan plan = planned.plan().plan();
        Layout now = plan.current().estimate().layout();
        // the candidate the fix writes: the first valid one that differs from the job in its sizes alone (LayoutFixes.best)
        Candidate best = plan.ranking().search().candidates().stream().filter(Candidate::valid)
                .filter(c -> c.layout().withSizes(now.tp(), now.pp(), now.dp(), now.cp(), now.ep(), now.virtualPp()).equals(now))
                .findFirst().orElseThrow();
        assertTrue(fix.title().startsWith("set " + best.layout().sizes() + ": "), fix.title() + " vs " + best.layout().sizes());
        return new Both(estimates.get(0).estimate(), plan.current().estimate(), Long.parseLong(m.group(1)),
                plan.ranking().estimate(best).throughput().tokensPerSecondPerGpu());
    }

    private static void same(Both b) {
        assertEquals(b.planEstimate().time().step(), b.checkEstimate().time().step(), 0, "check's estimate of the job is the plan's");
        assertEquals(b.planEstimate().time().comm(), b.checkEstimate().time().comm());
        assertEquals(Math.round(b.planTokens()), b.fixTokens(), "the fix's tokens/s are the plan's for that layout");
    }

    @Test
    void aProjectsPlanEfficienciesPriceCheckAsThePlan(@TempDir Path dir) throws IOException {
        Both catalog = run(dir, "rules: {}\n");
        same(catalog);
        // slow links: the job's own tp 8 × dp 2 gradients cross the nodes, and the candidates' collectives slow down too
        Both slow = run(dir, "plan:\n  network: 0.2\n  nvlink: 0.3\n");
        same(slow);
        assertTrue(slow.checkEstimate().time().step() > catalog.checkEstimate().time().step(),
                "check's estimate moved with the override: " + slow.checkEstimate().time().step() + " s");
        assertTrue(slow.fixTokens() < catalog.fixTokens(), "so did the fix's tokens/s: " + slow.fixTokens() + " vs " + catalog.fixTokens());
    }

    @Test
    void anNcclTestsRunLinkedToTheNodeGroupPricesCheckAsThePlan(@TempDir Path dir) throws IOException {
        Both catalog = run(dir, "rules: {}\n");
        // 20 GB/s measured across the two nodes, far below the 360 GB/s NCCL's 0.9 of the NICs would give
        Both measured = run(dir, "evidence:\n  - { files: \"*.all_reduce_perf.txt\", cluster: c, node_group: g }\n",
                "burnin.all_reduce_perf.txt", Fixtures.allReduce(20));
        same(measured);
        assertTrue(measured.checkEstimate().traffic().stream().anyMatch(t -> t.cost().tier() == Tier.NETWORK && t.cost().measured()),
                "check's estimate prices the network at the measured bus bandwidth");
        assertTrue(catalog.checkEstimate().traffic().stream().noneMatch(t -> t.cost().measured()));
        assertNotEquals(catalog.checkEstimate().time().step(), measured.checkEstimate().time().step(), "the measurement moved check's estimate");
        assertTrue(measured.fixTokens() < catalog.fixTokens(), measured.fixTokens() + " vs " + catalog.fixTokens());
    }
}
