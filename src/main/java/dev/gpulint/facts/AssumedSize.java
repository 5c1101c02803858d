package dev.gpulint.facts;

/**
 * The size a memory fact's bytes are at when the job's files state no GPU count (nor dp): the one `gpulint plan` takes for
 * it (derive.estimate.UnstatedSize#fact). {@code gpus} of {@code nodes} × {@code perNode} GPUs of node group {@code group}
 * (all its nodes: {@code allNodes}, or the job's stated nodes), fewer when they hold more than plan's {@code limit}
 * ({@code capped}), are no multiple of tp × pp × cp = {@code grid} ({@code gridRounded}) or give a dp not dividing the global
 * batch ÷ the micro batch = {@code perStep} ({@code batchRounded}). MemoryFact and StageMemoryFact hold one each and show
 * its figures to MEM001/002/003's messages as their {@code sized*} properties (SizedFact's default getters, written once).
 */
public record AssumedSize(long gpus, long nodes, long perNode, boolean allNodes, String group, long limit, boolean capped,
                          long grid, boolean gridRounded, long perStep, boolean batchRounded) {

    /** The job states its size: no assumed one (gpus 0). */
    public static final AssumedSize NONE = new AssumedSize(0, 0, 0, false, null, 0, false, 0, false, 0, false);
}
