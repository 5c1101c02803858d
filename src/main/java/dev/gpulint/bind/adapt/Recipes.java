package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;

/**
 * What the recipe formats built on a Lightning-style {@code trainer} share (SageMaker HyperPod, NeMo 2):
 * the job named after the document, {@code trainer.num_nodes × trainer.devices} (devices -1: every GPU
 * of the node, unknown), and that product stated as the job's GPUs.
 */
final class Recipes {
    private Recipes() {}

    /** A job of {@code format} with its name and {@code trainer.num_nodes} and {@code trainer.devices} bound. */
    static JobDraft start(String format, ForeignDocument doc) {
        MappingNode root = doc.root();
        JobDraft j = new JobDraft(format, doc.file(), root.span());
        j.name = new Located<>(doc.name(), root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span());
        MappingNode trainer = map(root, "trainer");
        j.nodes = j.key("trainer.num_nodes", TreeValues.whole(scalar(trainer, "num_nodes")));
        j.gpusPerNode = j.key("trainer.devices", TreeValues.whole(scalar(trainer, "devices")));
        if (j.gpusPerNode != null && j.gpusPerNode.value() == -1) j.gpusPerNode = null;     // -1: every GPU of the node
        j.gpusPerNodeWhere = "trainer.devices";
        return j;
    }

    /** States the job's GPUs (num_nodes × devices, where num_nodes is written) and hands the job to the sink. */
    static void finish(JobDraft j, DraftSink sink) {
        j.state("world", JobDraft.product(j.nodes, j.gpusPerNode), "trainer.num_nodes × trainer.devices", StatedKind.CONFIG,
                j.nodes != null ? j.nodes.span() : null);
        sink.draft(j);
    }
}
