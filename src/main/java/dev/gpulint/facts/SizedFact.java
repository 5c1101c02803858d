package dev.gpulint.facts;

/**
 * A fact whose bytes may be at the size `gpulint plan` takes for a job whose files state no GPU count (nor dp): its
 * {@link AssumedSize} shown as the {@code sized*} properties, defined here once for MemoryFact and StageMemoryFact (MEM001,
 * MEM002 and MEM003 word them alike). The getters are default methods: Drools reads them as properties in both the
 * executable model and the MVEL-compiled user rules, the message templates through engine.FactProperties
 * (Class#getMethods), and docs/writing-rules.md lists them in each implementing fact's table (FactsDocTest); all three
 * are tested in facts.SizedFactTest.
 */
public interface SizedFact {
    /** The job's files state no GPU count (nor dp): the fact's bytes are at this size, the one `gpulint plan` takes for it. */
    SizedFact sized(AssumedSize size);
    /** The size the fact's bytes are at ({@link AssumedSize#NONE}: the job states its own). */
    AssumedSize assumedSize();

    /** The bytes are at the size gpulint plan takes for a job that states none ({@link #sized}). */
    default boolean isSized() { return assumedSize().gpus() > 0; }
    /** The GPUs the job is held at when it states none; 0 when it states its size. */
    default long getSizedGpus() { return assumedSize().gpus(); }
    /** The nodes of that size. */
    default long getSizedNodes() { return assumedSize().nodes(); }
    /** GPUs per node of that size. */
    default long getSizedPerNode() { return assumedSize().perNode(); }
    /** That size is all the node group's nodes (not the job's stated nodes). */
    default boolean isSizedAllNodes() { return assumedSize().allNodes(); }
    /** The node group of that size. */
    default String getSizedGroup() { return assumedSize().group(); }
    /** The most GPUs gpulint plans (plan.Planner#MAX_GPUS). */
    default long getSizedLimit() { return assumedSize().limit(); }
    /** The nodes hold more GPUs than gpulint plans: the size is its limit (so not the most the job can be given). */
    default boolean isSizedCapped() { return assumedSize().capped(); }
    /** tp × pp × cp of the job. */
    default long getSizedGrid() { return assumedSize().grid(); }
    /** The size is rounded down to a multiple of tp × pp × cp. */
    default boolean isSizedGridRounded() { return assumedSize().gridRounded(); }
    /** The stated global batch ÷ the micro batch (0: not stated). */
    default long getSizedPerStep() { return assumedSize().perStep(); }
    /** The size is rounded down to a dp dividing the global batch ÷ the micro batch. */
    default boolean isSizedBatchRounded() { return assumedSize().batchRounded(); }
}
