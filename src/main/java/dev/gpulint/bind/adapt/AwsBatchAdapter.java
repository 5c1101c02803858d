package dev.gpulint.bind.adapt;

import dev.gpulint.catalog.Catalog;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.Shell;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.maps;
import static dev.gpulint.bind.adapt.TreeValues.scalar;
import static dev.gpulint.bind.adapt.TreeValues.text;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.List;

/**
 * AWS Batch multi-node job definitions in a CloudFormation template ({@code Type:
 * AWS::Batch::JobDefinition} with {@code NodeProperties}): {@code NumNodes}, each node range's
 * container GPUs ({@code ResourceRequirements} of Type GPU), {@code InstanceType}, {@code Environment}
 * and {@code Command} (mpirun and its {@code -x} variables, through the same scan as a pod's).
 * CloudFormation's own tags ({@code !Ref}, {@code !GetAtt}) are kept as values; they are unknown.
 */
final class AwsBatchAdapter implements FormatAdapter {
    static final String FORMAT = Format.AWS_BATCH.display();

    AwsBatchAdapter() {}


    @Override public String id() { return "aws-batch"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    /** Each job definition of the file, named by its key. */
    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        for (MappingNode.Entry def : definitions(doc.root())) sink.draft(bind(def, doc.file(), doc.name() + "#" + def.key().text(), doc.text()));
    }

    static boolean accepts(MappingNode root) {
        return !definitions(root).isEmpty();
    }

    static List<MappingNode.Entry> definitions(MappingNode root) {
        List<MappingNode.Entry> out = new ArrayList<>();
        MappingNode res = map(root, "Resources");
        if (res == null) return out;
        for (MappingNode.Entry e : res.entries()) {
            if ("AWS::Batch::JobDefinition".equals(text(e.value(), "Type")) && map(e.value(), "Properties", "NodeProperties") != null) out.add(e);
        }
        return out;
    }

    static JobDraft bind(MappingNode.Entry def, String file, String jobName, String source) {
        MappingNode np = map(def.value(), "Properties", "NodeProperties");
        JobDraft j = new JobDraft(FORMAT, file, def.value().span());
        j.name = new Located<>(jobName, def.key().span());
        Located<Long> nodes = j.key("NumNodes", TreeValues.integer(np, "NumNodes"));
        List<MappingNode> ranges = maps(np, "NodeRangeProperties");
        // one range covering every node ('0:' or the only range): its container is every node's
        MappingNode c = ranges.size() == 1 ? map(ranges.get(0), "Container") : null;
        if (c == null) return j;
        Located<Long> gpus = null;
        for (MappingNode r : maps(c, "ResourceRequirements")) {
            if ("GPU".equalsIgnoreCase(text(r, "Type"))) gpus = TreeValues.integer(scalar(r, "Value"));
        }
        ScalarNode it = scalar(c, "InstanceType");
        Catalog.builtIn().cloud().instance(it == null ? "" : it.text()).ifPresent(g -> j.gpuModel = new Located<>(g.gpu(), it.span()));
        j.gpusPerNodeWhere = "the container's GPU requirement";
        j.nodes = nodes;
        j.gpusPerNode = gpus;
        if (nodes != null && gpus != null) {
            j.state("world", JobDraft.product(nodes, gpus), "NumNodes " + nodes.value() + " × " + gpus.value() + " GPUs per node",
                    StatedKind.RESOURCE, gpus.span());
            j.state("per_node", gpus, "the container's GPU requirement", StatedKind.RESOURCE);
        }
        for (MappingNode e : maps(c, "Environment")) {
            ScalarNode n = scalar(e, "Name");
            ScalarNode v = scalar(e, "Value");
            if (n != null && v != null && !v.isNull()) j.env(n.text(), v.text(), v.span(), "Environment");
        }
        List<Word> words = new ArrayList<>();
        List<Shell.Assignment> exports = new ArrayList<>();
        Launchers.Launch l = new Launchers.Launch();
        Launchers.command(c.get("Command").orElse(null), source, l, words, exports);
        Launchers.scan(words, l);
        j.exports(exports, "export in the command");
        LaunchStatements.apply(j, l);
        return j;
    }
}
