package dev.gpulint.bind.adapt;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.catalog.Cloud;
import java.util.Locale;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.ScalarText;
import dev.gpulint.bind.adapt.shell.Shell;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SkyPilot task YAML: {@code resources.accelerators} ({@code H100:8}, or the map
 * {@code {A100-80GB: 8}}), GPUs implied by a few well-known {@code instance_type}s,
 * {@code num_nodes}, {@code envs}, {@code network_tier}, and the {@code setup:} and {@code run:}
 * scripts through the shell-lite scan, with SKYPILOT_NUM_NODES, SKYPILOT_NUM_GPUS_PER_NODE and
 * the task's envs known to it.
 */
final class SkyPilotAdapter implements FormatAdapter {
    static final String FORMAT = Format.SKYPILOT.display();
    private static final Pattern ACCEL = Pattern.compile("\\s*([A-Za-z0-9][A-Za-z0-9_.\\-]*)\\s*(?::\\s*([0-9]+(?:\\.[0-9]+)?))?\\s*");

    /** An accelerators text, stripped and capped before {@link #ACCEL} sees it (blanks must not make the match quadratic). */
    private static String bounded(String text) {
        String t = text.strip();
        return t.length() <= 128 ? t : "";
    }

    SkyPilotAdapter() {}


    @Override public String id() { return "skypilot"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        sink.draft(bind(doc.root(), doc.file(), doc.name(), doc.text(), sink::finding));
    }

    static boolean accepts(MappingNode root) {
        if (root.get("kind").isPresent() || root.get("apiVersion").isPresent()) return false;
        MappingNode res = map(root, "resources");
        boolean resources = res != null && (res.get("accelerators").isPresent() || res.get("instance_type").isPresent()
                || res.get("infra").isPresent() || res.get("cloud").isPresent() || res.get("any_of").isPresent()
                || res.get("ordered").isPresent());
        boolean script = root.get("run").isPresent() || root.get("setup").isPresent();
        return script && (resources || root.get("num_nodes").isPresent());
    }

    /** The task's job; {@code findings} takes what its setup and run scripts' srun lines say (SYN011, SrunExportCuts). */
    static JobDraft bind(MappingNode root, String file, String jobName, String source,
                         java.util.function.Consumer<dev.gpulint.core.Finding> findings) {
        JobDraft j = new JobDraft(FORMAT, file, root.span());
        ScalarNode nameNode = scalar(root, "name");
        j.name = new Located<>(jobName, nameNode != null ? nameNode.span() : root.entries().get(0).key().span());
        Located<Long> nodes = j.key("num_nodes", TreeValues.integer(root, "num_nodes"));
        j.nodes = nodes != null ? nodes : root.get("num_nodes").isPresent() ? null : new Located<>(1L, root.entries().get(0).key().span());
        MappingNode res = map(root, "resources");
        accelerators(j, res);
        if (res != null) {
            String tier = TreeValues.text(res, "network_tier");
            if ("best".equals(tier)) j.rdmaByAccess = true;
        }
        Map<String, String> known = new LinkedHashMap<>();
        if (j.nodes != null) known.put("SKYPILOT_NUM_NODES", String.valueOf(j.nodes.value()));
        if (j.gpusPerNode != null) known.put("SKYPILOT_NUM_GPUS_PER_NODE", String.valueOf(j.gpusPerNode.value()));
        MappingNode envs = map(root, "envs");
        if (envs != null) {
            for (MappingNode.Entry e : envs.entries()) {
                if (!(e.value() instanceof ScalarNode s) || s.isNull()) continue;
                if (!s.text().contains("$")) known.putIfAbsent(e.key().text(), s.text());
                j.env(e.key().text(), s.text(), s.span(), "envs");
            }
        }
        if (j.nodes != null && j.gpusPerNode != null) {
            j.state("world", JobDraft.product(j.nodes, j.gpusPerNode), "num_nodes × accelerators", StatedKind.RESOURCE, j.gpusPerNode.span());
            j.state("per_node", j.gpusPerNode, "resources.accelerators", StatedKind.RESOURCE);
        }
        // the environment setup and run each start with: envs (setup's exports do not reach run, another shell), each value
        // as the process gets it (YamlScalars.pythonString: SkyPilot's str() of what YAML read; a float or an expansion unknown)
        Map<String, Shell.Word> base = new LinkedHashMap<>();
        for (Map.Entry<String, Located<String>> e : j.env.entrySet()) {
            ScalarNode s = envs == null ? null : scalar(envs, e.getKey());
            String v = s == null || s.quoted() ? e.getValue().value() : YamlScalars.pythonString(e.getValue().value());
            base.put(e.getKey(), new Shell.Word(v == null ? e.getValue().value() : v, v != null && !v.contains("$"), e.getValue().span()));
        }
        java.util.Set<String> setupOnly = new java.util.LinkedHashSet<>();
        for (String block : new String[] {"setup", "run"}) {
            ScalarNode s = scalar(root, block);
            if (s == null || s.isNull()) continue;
            Shell.Script script = Shell.parse(ScalarText.of(source, s), known);
            SrunExportCuts.of(script, null, FORMAT, jobName).forEach(findings);
            j.exports(script.assignments(), block + ": export");
            Launchers.Launch l = Launchers.scan(script);
            LaunchStatements.apply(j, l);
            if (block.equals("run")) LaunchEnvironment.stateLaunchExport(j, script);
            if (block.equals("setup")) {
                for (Shell.Assignment a : script.assignments()) if (a.exported() && !base.containsKey(a.name())) setupOnly.add(a.name());
            } else {
                // run's launch gets envs as changed by run's own commands before it (the NCCL rules' variables), not what
                // setup exported: each block is its own shell (SkyPilot runs setup, then run, as separate bash scripts)
                java.util.Set<String> keep = new java.util.HashSet<>();
                for (Launchers.EnvSet e : l.mpiSets()) keep.add(e.name());
                LaunchEnvironment.bind(j, script, keep, null, base);
                LaunchEnvironment.launcherSets(j, l.env, new java.util.HashSet<>());
                for (Shell.Assignment a : script.assignments()) setupOnly.remove(a.name());
                setupOnly.removeAll(keep);
                for (String name : setupOnly) j.env.remove(name);
            }
            AttentionBackends.launchEnvironment(j, List.of(script), l.mpiSets(), base);
        }
        AttentionBackends.startEnvironment(j, base);
        return j;
    }

    private static void accelerators(JobDraft j, MappingNode res) {
        if (res == null) return;
        Node a = res.get("accelerators").orElse(null);
        if (a == null) {
            for (String k : new String[] {"any_of", "ordered"}) {
                java.util.Set<String> seen = new java.util.LinkedHashSet<>();
                Node first = null;
                for (MappingNode alt : TreeValues.maps(res, k)) {
                    Node x = alt.get("accelerators").orElse(null);
                    if (x instanceof ScalarNode xs) { seen.add(xs.text().replace(" ", "")); if (first == null) first = x; }
                    else if (x != null) seen.add("?" + seen.size());
                }
                if (seen.size() == 1 && first != null) a = first;
            }
        }
        String name = null;
        long count = -1;
        Span at = null;
        if (a instanceof ScalarNode s && !s.isNull()) {
            Matcher m = ACCEL.matcher(bounded(s.text()));
            if (m.matches()) { name = m.group(1); count = count(m.group(2)); at = s.span(); }
        } else if (a instanceof MappingNode m && m.entries().size() == 1) {
            MappingNode.Entry e = m.entries().get(0);
            String key = e.key().text();
            Matcher km = ACCEL.matcher(bounded(key));
            if (e.value() instanceof ScalarNode v && !v.isNull()) {
                if (km.matches() && km.group(2) == null) { name = km.group(1); count = count(v.text()); at = v.span(); }
            } else if (km.matches()) {
                name = km.group(1); count = count(km.group(2)); at = e.key().span();
            }
        }
        if (name != null && !TreeValues.placeholder(name)) {
            Cloud cloud = Catalog.builtIn().cloud();
            String written = name;
            String model = cloud.accelerator(written).or(() -> cloud.accelerator(written.toUpperCase(Locale.ROOT))).orElse(written);
            j.gpuModel = new Located<>(model, at);
            if (count > 0) { j.gpusPerNode = new Located<>(count, at); j.gpusPerNodeWhere = "resources.accelerators"; }
            return;
        }
        ScalarNode it = scalar(res, "instance_type");
        Cloud.Instance g = it == null ? null : Catalog.builtIn().cloud().instance(it.text()).orElse(null);
        if (g != null) {
            j.gpuModel = new Located<>(g.gpu(), it.span());
            j.gpusPerNode = new Located<>(g.count(), it.span());
            j.gpusPerNodeWhere = "resources.instance_type";
        }
    }

    private static long count(String s) {
        if (s == null) return 1;
        try {
            double d = Double.parseDouble(s.trim());
            return d >= 1 && d == Math.floor(d) ? (long) d : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
