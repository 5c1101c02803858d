package dev.gpulint.bind;

import dev.gpulint.core.DidYouMean;

import dev.gpulint.bind.Schema.Field;
import dev.gpulint.bind.Schema.Type;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.ModelSink;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Quantities.Parsed;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Unitless;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one schema binder: document tree to typed specs. First it validates the
 * whole document against {@link Schema} (SYN002 for unknown fields, wrong
 * types and missing fields; UNIT003 for missing or ambiguous units), keeping
 * each valid scalar's typed value; then it builds the specs from the values
 * that passed ({@link SpecBuilder}). An invalid value binds as absent, so no rule reasons on it.
 */
public final class Binder {

    private final List<Finding> findings = new ArrayList<>();
    /** The bandwidths rejected for their unit (UNIT003), for the fix the catalog may make certain ({@link Model#unitless}). */
    private final List<Unitless> unitless = new ArrayList<>();
    /** The typed value of each scalar of the document being bound that passed validation (by node identity). */
    private Map<Node, Object> values = new IdentityHashMap<>();
    /**
     * The node groups of the cluster being bound, each built as soon as it is validated, and the schema field
     * they are listed under. A fleet inventory lists a million node groups in one document: a value map for the
     * whole document would hold every scalar of it at once, one per node group holds a few dozen.
     */
    private List<Specs.NodeGroup> groups;
    private Field groupsField;
    /** The folded node groups of the document being bound ({@link dev.gpulint.core.Fold}). */
    private dev.gpulint.tree.Folds folds = dev.gpulint.tree.Folds.NONE;

    /**
     * Text made of parts, joined only when read: a finding's identity path and the phrase that names a
     * value's owner. Every scalar of a document has them, few ever need them (a fleet file has millions
     * of scalars and no findings).
     */
    private record Text(Object... parts) {
        @Override public String toString() {
            StringBuilder sb = new StringBuilder();
            for (Object o : parts) sb.append(o);
            return sb.toString();
        }
    }

    /** The documents' clusters and jobs, and the findings met binding them. */
    public Model bind(List<Document> documents) {
        ModelSink out = new ModelSink();
        for (Document d : documents) {
            Node kindNode = d.root().get("kind").orElse(null);
            String kind = kindNode instanceof ScalarNode ks ? ks.text() : "";
            Field schema = Schema.forKind(kind);
            if (schema == null) {
                findings.add(UnknownKind.finding(d, kindNode, kind));
                continue;
            }
            String label = d.root().get("name").filter(n -> n instanceof ScalarNode).map(n -> ((ScalarNode) n).text())
                    .orElse("#" + d.index());
            values = new IdentityHashMap<>();
            boolean cluster = kind.equals("cluster");
            groups = cluster ? new ArrayList<>() : null;
            groupsField = cluster ? schema.child("node_groups") : null;
            folds = d.folds();
            validateMap(d.root(), schema, kind + ":" + label, kind + " '" + label + "'", d.root().span());
            SpecBuilder specs = new SpecBuilder(values, findings);
            if (cluster) out.cluster(specs.cluster(d, groups)); else out.job(specs.job(d));
            values = null;
            groups = null;
            groupsField = null;
            folds = dev.gpulint.tree.Folds.NONE;
        }
        // bounded as the rules' messages are; one that names a folded node group by its token is bounded when
        // the token is replaced (settle.Unfolder), so that each node group's is cut as it would be without folding
        for (Finding f : findings) out.finding(dev.gpulint.core.Fold.marked(f.message()) ? f
                : f.withMessage(Finding.bounded(f.message(), Finding.MAX_MESSAGE)));
        for (Unitless u : unitless) out.unitless(u);
        return out.build();
    }

    // ---------------------------------------------------------------- validation

    private void validateMap(MappingNode m, Field schema, Object path, Object owner, Span ownerSpan) {
        Map<String, MappingNode.Entry> seen = new HashMap<>();
        for (MappingNode.Entry e : m.entries()) {
            String key = e.key().text();
            MappingNode.Entry first = seen.putIfAbsent(key, e);
            if (first != null) {
                findings.add(Finding.of("SYN002", e.key().span(), path + "/" + key + "#dup",
                        "'" + key + "' appears twice in " + owner + " (first at line " + first.key().span().startLine()
                                + "); remove one of them").withRelated(first.key().span(), "first '" + key + "' here"));
                continue;
            }
            Field f = schema.child(key);
            if (f == null) {
                String guess = DidYouMean.closest(key, schema.children().keySet());
                findings.add(Finding.of("SYN002", e.key().span(), path + "/" + key,
                        "unknown field '" + key + "' in " + owner
                                + (guess != null ? "; did you mean '" + guess + "'?"
                                                 : "; valid fields: " + String.join(", ", schema.children().keySet()))));
                continue;
            }
            validateValue(e.key(), e.value(), f, new Text(path, "/", key), owner);
        }
        for (Field f : schema.children().values()) {
            if (!f.required()) continue;
            Node v = m.get(f.name()).orElse(null);
            if (v == null || (v instanceof ScalarNode s && s.isNull())) {
                Span at = v != null ? v.span() : m.entries().isEmpty() ? ownerSpan : m.entries().get(0).key().span();
                findings.add(Finding.of("SYN002", at, path + "/" + f.name() + "#missing",
                        owner + " is missing required field '" + f.name() + "'"));
            }
        }
    }

    private void validateValue(ScalarNode key, Node value, Field f, Object path, Object owner) {
        String name = key.text();
        if (value instanceof ScalarNode s && s.isNull() && !f.required()) return; // `key:` with nothing: absent
        switch (f.type()) {
            case MAP -> {
                if (!(value instanceof MappingNode m)) { wrongType(key, value, "a mapping", path); return; }
                validateMap(m, f, path, new Text("'", name, "' of ", owner), key.span());
            }
            case LIST -> {
                if (!(value instanceof ListNode l)) { wrongType(key, value, "a list", path); return; }
                int i = 0;
                for (Node item : l.items()) {
                    // where the item was written: node groups folded away before it still count
                    int at = f == groupsField ? folds.place(i) : i;
                    if (!(item instanceof MappingNode m)) { wrongType(key, item, "a list of mappings", path + "[" + at + "]"); i++; continue; }
                    // a folded node group is bound once, under its fold's token: its findings are written per member later
                    dev.gpulint.core.Fold fold = f == groupsField ? folds.of(m) : null;
                    String label = fold != null ? fold.token()
                            : m.get("name").filter(n -> n instanceof ScalarNode).map(n -> ((ScalarNode) n).text()).orElse(null);
                    Text itemPath = new Text(path, "[", label != null ? label : at, "]");
                    String singular = name.endsWith("s") ? name.substring(0, name.length() - 1) : name;
                    Text itemOwner = label != null ? new Text(singular, " '", label, "' of ", owner)
                            : new Text(singular, " #", at + 1, " of ", owner);
                    if (f == groupsField) {   // only set while a cluster is bound
                        Map<Node, Object> documentValues = values;
                        values = new IdentityHashMap<>();
                        validateMap(m, f, itemPath, itemOwner, m.span());
                        Specs.NodeGroup group = new SpecBuilder(values, findings).group(m);
                        groups.add(fold != null && group.name() != null ? group.folding(fold) : group);
                        values = documentValues;
                    } else {
                        validateMap(m, f, itemPath, itemOwner, m.span());
                    }
                    i++;
                }
            }
            case CHOICES -> {
                // a list of names, each one of the field's values (recompute_modules: [layernorm, moe_act]): SYN002 at each
                // other name; the names kept in order, each once
                if (!(value instanceof ListNode l)) { wrongType(key, value, "a list of names such as [" + f.values().get(0) + "]", path); return; }
                List<String> names = new ArrayList<>();
                int i = 0;
                for (Node item : l.items()) {
                    Object at = new Text(path, "[", i++, "]");
                    if (!(item instanceof ScalarNode s) || s.isNull()) { wrongType(key, item, "a list of names", at); continue; }
                    String t = s.text().strip();
                    if (placeholder(t)) continue;
                    if (!f.values().contains(t)) {
                        String guess = DidYouMean.closest(t, f.values());
                        typeError(s, at, "'" + name + "' has '" + Quantities.shortText(t) + "'; expected names among " + String.join(", ", f.values())
                                + (guess != null ? " (did you mean '" + guess + "'?)" : ""));
                        continue;
                    }
                    if (!names.contains(t)) names.add(t);
                }
                // a list with a name that is not known binds only its known names, as Megatron's run would not start at all
                values.put(value, List.copyOf(names));
            }
            case STRING_MAP -> {
                if (!(value instanceof MappingNode m)) { wrongType(key, value, "a mapping of names to values", path); return; }
                for (MappingNode.Entry e : m.entries()) {
                    if (!(e.value() instanceof ScalarNode)) wrongType(e.key(), e.value(), "a single value", path + "/" + e.key().text());
                }
                if (name.equals("env") && m.entries().size() > Specs.MAX_ENV) {
                    ScalarNode first = m.entries().get(Specs.MAX_ENV).key();
                    findings.add(Specs.envLeftOut(first.span(), m.entries().size(), first.text(), path + "#limit"));
                }
            }
            default -> {
                if (!(value instanceof ScalarNode s)) { wrongType(key, value, expected(f), path); return; }
                scalar(key, s, f, path);
            }
        }
    }

    private static final java.util.regex.Pattern RATIO_TEXT = java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(?::\\s*1)?");

    /** Template placeholders and "decide later" values: unknown, so no rule reasons on them (and no error). */
    public static boolean placeholder(String t) {
        String v = t.strip();
        if (v.length() > 256) return false;
        // every scalar of a document passes here: only text that can be a placeholder meets the pattern
        if (v.indexOf('$') < 0 && v.indexOf('{') < 0 && v.indexOf('?') < 0 && !v.equalsIgnoreCase("auto")) return false;
        return PLACEHOLDER.matcher(v).matches();
    }

    private static final java.util.regex.Pattern PLACEHOLDER = java.util.regex.Pattern.compile(
            "\\$\\{[^}]*\\}|\\$[A-Za-z_][A-Za-z0-9_]*|\\{\\{.*\\}\\}|\\?\\?\\?|(?i)auto");

    private void scalar(ScalarNode key, ScalarNode s, Field f, Object path) {
        String name = key.text();
        String t = s.text();
        if (FillIn.is(t)) { findings.add(FillIn.finding(key, s, path)); return; }
        if (f.type() != Type.STRING && placeholder(t)) return;
        switch (f.type()) {
            case STRING -> values.put(s, t);
            case INT -> {
                Parsed<Long> p = Quantities.integer(t);
                int beyond = p.ok() ? 0 : Quantities.beyondLong(t);
                if (beyond != 0) { typeError(s, path, f.outOfRange(name, t)); return; }
                if (!p.ok()) { typeError(s, path, Quantities.tooLong(t) != null ? p.problem()
                        : "'" + name + "' must be an integer, found '" + Quantities.shortText(t) + "'"); return; }
                String outOfRange = f.outOfRange(name, p.value());
                if (outOfRange != null) { typeError(s, path, outOfRange); return; }
                values.put(s, p.value());
            }
            case NUMBER -> {
                Parsed<Double> p = Quantities.count(t);
                if (!p.ok() || p.value() <= 0) { typeError(s, path, Quantities.tooLong(t) != null ? p.problem()
                        : "'" + name + "' must be a positive number, found '" + Quantities.shortText(t) + "'"); return; }
                values.put(s, p.value());
            }
            case FRACTION -> {
                // a share from 0 to 1 (offload.optimizer_fraction: 0 keeps every optimizer state on the GPU, 1 offloads all)
                Parsed<Double> p = Quantities.count(t.strip());
                if (!p.ok() || !(p.value() >= 0 && p.value() <= 1)) { typeError(s, path, Quantities.tooLong(t) != null ? p.problem()
                        : "'" + name + "' must be a number from 0 to 1, found '" + Quantities.shortText(t) + "'"); return; }
                values.put(s, p.value());
            }
            case COUNT -> {
                Parsed<Double> p = Quantities.count(t);
                if (!p.ok()) { typeError(s, path, "'" + name + "': " + p.problem()); return; }
                if (p.value() <= 0) { typeError(s, path, "'" + name + "' must be positive, found '" + Quantities.shortText(t) + "'"); return; }
                values.put(s, p.value());
            }
            case BOOL -> {
                String l = t.toLowerCase(Locale.ROOT);
                if (l.equals("true") || l.equals("false")) values.put(s, l.equals("true"));
                else typeError(s, path, "'" + name + "' must be true or false, found '" + Quantities.shortText(t) + "'");
            }
            case ENUM -> {
                if (f.values().contains(t)) { values.put(s, t); return; }
                String guess = DidYouMean.closest(t, f.values());
                typeError(s, path, "'" + name + "' is '" + Quantities.shortText(t) + "'; expected one of " + String.join(", ", f.values())
                        + (guess != null ? " (did you mean '" + guess + "'?)" : ""));
            }
            case RATIO -> {
                // stripped and capped first: blanks around the number must not make the match quadratic
                String r = t.strip();
                java.util.regex.Matcher m = RATIO_TEXT.matcher(r.length() <= 64 ? r : "");
                if (m.matches()) values.put(s, Double.parseDouble(m.group(1)));
                else typeError(s, path, "'" + name + "' must be a ratio such as \"2:1\", found '" + (t.length() <= 64 ? t : r.substring(0, Math.min(60, r.length())) + "…") + "'");
            }
            case ORDER -> order(key, s, path);
            case HYBRID_PATTERN -> {
                // one character per decoder layer (Megatron-Core's hybrid_override_pattern), '|' between pipeline stages and
                // the MTP blocks after the first '/' (kept as written: SpecBuilder reads the decoder's part), bounded before it is read;
                // only ASCII whitespace around it is trimmed, as the schema's pattern trims it: Megatron-Core refuses any other space
                String p = dev.gpulint.spec.HybridPattern.strip(t);
                if (p.length() <= Schema.HYBRID_LAYERS && dev.gpulint.spec.HybridPattern.valid(p)) {
                    values.put(s, p);
                } else {
                    int space = p.length() <= Schema.HYBRID_LAYERS ? dev.gpulint.spec.HybridPattern.firstSpace(p) : -1;
                    typeError(s, path, "'" + name + "' is '" + Quantities.shortText(t) + "': one character per layer, M (Mamba-2), * (attention),"
                            + " - (MLP), E (MoE) or G (gated delta net), '|' between pipeline stages and the MTP layers' blocks after a '/' (one group per MTP layer, every"
                            + " group the same, at most " + dev.gpulint.spec.HybridPattern.MAX_MTP + "), 1 to "
                            + Schema.HYBRID_LAYERS + " characters, as Megatron-Core's hybrid_override_pattern writes"
                            + " them" + (space < 0 ? "" : " (character " + (space + 1) + " of the pattern is "
                            + dev.gpulint.spec.HybridPattern.shown(p.charAt(space)) + ": Megatron-Core strips nothing and refuses every"
                            + " character but the layer symbols; only ASCII blanks around the pattern are trimmed here)")
                            + "; the estimate prices every layer as a transformer layer without it");
                }
            }
            case LAYER_PATTERN -> {
                String why = dev.gpulint.spec.LayerPattern.problem(t);
                if (why == null) values.put(s, t);
                else typeError(s, path, "'" + name + "' is '" + Quantities.shortText(t) + "': " + why);
            }
            case BANDWIDTH -> {
                Parsed<?> p = Quantities.bandwidth(t);
                unit(s, path, p);
                if (p.unitProblem()) unitless.add(new Unitless(s.span(), path.toString(), t));
            }
            case SIZE -> unit(s, path, Quantities.size(t));
            case DURATION -> unit(s, path, Quantities.duration(t));
            default -> throw new IllegalStateException(f.type().toString());
        }
    }

    private void order(ScalarNode key, ScalarNode s, Object path) {
        List<ParallelDim> dims = new ArrayList<>();
        for (String part : s.text().split("-", -1)) {
            String d = part.trim().toLowerCase(Locale.ROOT);
            ParallelDim dim = ParallelDim.ofLabel(d).filter(ParallelDim::ranked).orElse(null);
            if (dim == null) {
                String guess = DidYouMean.closest(d, Schema.ORDER_DIMS);
                typeError(s, path, "rank order '" + Quantities.shortText(s.text()) + "' has '" + Quantities.shortText(part) + "'; the dimensions are "
                        + String.join(", ", Schema.ORDER_DIMS) + (guess != null ? " (did you mean '" + guess + "'?)" : ""));
                return;
            }
            if (dims.contains(dim)) {
                typeError(s, path, "rank order '" + Quantities.shortText(s.text()) + "' names '" + d + "' twice");
                return;
            }
            dims.add(dim);
        }
        values.put(s, ParallelDim.completeOrder(dims));
    }

    private void unit(ScalarNode s, Object path, Parsed<?> p) {
        if (p.ok()) { values.put(s, p.value()); return; }
        findings.add(Finding.of(p.unitProblem() ? "UNIT003" : "SYN002", s.span(), path.toString(), p.problem()));
    }

    private void typeError(ScalarNode s, Object path, String message) {
        findings.add(Finding.of("SYN002", s.span(), path.toString(), message));
    }

    private void wrongType(ScalarNode key, Node value, String expected, Object path) {
        String found = value instanceof ScalarNode sc ? "'" + Quantities.shortText(sc.text()) + "'" : value.describe();
        findings.add(Finding.of("SYN002", value.span(), path.toString(), "'" + key.text() + "' must be " + expected + ", found " + found));
    }

    private static String expected(Field f) {
        return switch (f.type()) {
            case INT -> "an integer";
            case BOOL -> "true or false";
            case BANDWIDTH -> "a bandwidth such as 400 Gb/s";
            case SIZE -> "a size such as 80 GB";
            case DURATION -> "a duration such as 2.5 s";
            case COUNT, NUMBER -> "a number";
            case FRACTION -> "a number from 0 to 1";
            default -> "a single value";
        };
    }
}
