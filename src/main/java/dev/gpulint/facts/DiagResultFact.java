package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A result of a dcgmi diag test (docs/evidence.md): the test, its category, the result word as printed (Pass, Fail,
 * Skip, Warn), the GPUs the result names, and the Warning or Info text printed under it.
 */
public record DiagResultFact(String file, String category, String test, String result, Span resultSpan, String gpus, String reason,
                             Span span, boolean linked) {
    /** The file. */
    public String getFile() { return file; }
    /** The category the table heads the test with (Deployment, Integration, Hardware, Stress); "" before any. */
    public String getCategory() { return category; }
    /** The test's name as printed (PCIe, Memory Bandwidth, Diagnostic). */
    public String getTest() { return test; }
    /** Pass, Fail, Skip or Warn. */
    public String getResult() { return result; }
    /** Where the result word is. */
    public Span getResultSpan() { return resultSpan; }
    /** The result failed. */
    public boolean isFailed() { return result.equals("Fail"); }
    /** The GPUs the result names after its dash ("All", "GPU 3", "GPUs 0, 1"); "" when none. */
    public String getGpus() { return gpus; }
    /** The Warning and Info rows printed under the result, joined, without a closing period; "" when none. */
    public String getReason() { return reason; }
    /** Where the result's row is. */
    public Span getSpan() { return span; }
    /** The file belongs to a node group (EvidenceFact). */
    public boolean isLinked() { return linked; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "diag:" + file + "/" + test + "/" + gpus; }
}
