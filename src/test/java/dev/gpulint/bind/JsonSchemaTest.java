package dev.gpulint.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gpulint.report.JsonOut;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The JSON Schemas shipped for editors (schema/) accept what gpulint accepts:
 * every YAML sample validates, fields match the binder's schema one for one,
 * and an unknown field is rejected.
 */
class JsonSchemaTest {

    private static final Path DIR = Path.of("..", "schema");

    private static Schema schema(String name) throws IOException {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(Files.readString(DIR.resolve(name), StandardCharsets.UTF_8), InputFormat.JSON);
    }

    private static String json(Object yaml) throws IOException {
        StringWriter w = new StringWriter();
        JsonOut.write(yaml, w);
        return w.toString();
    }

    @Test
    void everyYamlSampleValidates() throws IOException {
        Schema s = schema("gpulint-manifest.schema.json");
        int docs = 0;
        try (var walk = Files.walk(Path.of("..", "samples"))) {
            for (Path p : walk.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object doc : new Load(LoadSettings.builder().build()).loadAllFromString(Files.readString(p))) {
                    // the samples of other formats (NeMo, Kubernetes, ...) are not gpulint manifests
                    if (!(doc instanceof Map<?, ?> m) || !dev.gpulint.read.Manifests.KINDS.contains(String.valueOf(m.get("kind")))) continue;
                    var errors = s.validate(json(doc), InputFormat.JSON);
                    assertTrue(errors.isEmpty(), p + ": " + errors);
                    docs++;
                }
            }
        }
        assertTrue(docs >= 5, "samples checked: " + docs);
        assertFalse(s.validate(json(Map.of("kind", "cluster", "name", "c", "nodegroups", java.util.List.of())), InputFormat.JSON).isEmpty());
        assertFalse(s.validate(json(Map.of("kind", "training_job", "name", "j", "nodes", "two")), InputFormat.JSON).isEmpty());
    }

    @Test
    void configurationSchemaAcceptsTheReadmeExample() throws IOException {
        Schema s = schema("gpulint-config.schema.json");
        String readme = Files.readString(Path.of("..", "README.md"));
        int a = readme.indexOf("# .gpulint.yaml, in the repository root");
        String yaml = readme.substring(a, readme.indexOf("```", a));
        assertTrue(s.validate(json(new Load(LoadSettings.builder().build()).loadFromString(yaml)), InputFormat.JSON).isEmpty());
        assertFalse(s.validate("{\"includes\": [\"x\"]}", InputFormat.JSON).isEmpty());
    }

    @Test
    void fieldsMatchTheBindersSchema() throws IOException {
        Map<String, Object> defs = definitions();
        assertEquals(paths(dev.gpulint.bind.Schema.CLUSTER, ""), jsonPaths(defs.get("cluster"), ""));
        assertEquals(paths(dev.gpulint.bind.Schema.JOB, ""), jsonPaths(defs.get("training_job"), ""));
    }

    /** The manifest schema's definitions (cluster, training_job), as YAML reads the JSON. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> definitions() throws IOException {
        Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(DIR.resolve("gpulint-manifest.schema.json")));
        return (Map<String, Object>) root.get("definitions");
    }

    /** Every choice field's values, in the binder and in the JSON schema an editor validates with, are the same. */
    @Test
    @SuppressWarnings("unchecked")
    void choicesMatchTheBindersSchema() throws IOException {
        Map<String, Object> defs = definitions();
        java.util.TreeMap<String, java.util.List<String>> binder = new java.util.TreeMap<>(), json = new java.util.TreeMap<>();
        enums(dev.gpulint.bind.Schema.JOB, "", binder);
        jsonEnums(defs.get("training_job"), "", json);
        assertEquals(binder, json);
        // the fields this round added are among them
        assertEquals(java.util.List.of("fused", "eager"), json.get("kernels"));
        assertEquals(java.util.List.of("tensorwise", "rowwise", "rowwise_with_gw_hp"), json.get("fp8_scaling"));
    }

    /**
     * Every whole-number field's bounds, in the binder and in the JSON schema (its integer form), are the same: an editor
     * flags the value SYN002 would refuse (top_k 2000, mtp_layers 65, a Mamba-2 size of 0). An open JSON maximum stands for
     * the binder's "no bound of its own" (Integer.MAX_VALUE or Long.MAX_VALUE: a layer count or a batch).
     */
    @Test
    @SuppressWarnings("unchecked")
    void wholeNumberBoundsMatchTheBindersSchema() throws IOException {
        Map<String, Object> defs = definitions();
        java.util.TreeMap<String, String> binder = new java.util.TreeMap<>(), json = new java.util.TreeMap<>();
        for (var kind : java.util.List.of(dev.gpulint.bind.Schema.CLUSTER, dev.gpulint.bind.Schema.JOB)) {
            bounds(kind, kind.name() + ":", binder);
            jsonBounds(defs.get(kind.name()), kind.name() + ":", json);
        }
        json.keySet().retainAll(binder.keySet()); // model.moe.layer_freq: an integer or a list expression, read by its own type
        assertEquals(binder, json);
        assertEquals("0..64", json.get("training_job:model.mtp_layers"));
        assertEquals("1..65536", json.get("training_job:model.hybrid.mamba_num_heads"));
        assertEquals("1..1024", json.get("training_job:model.top_k"));
    }

    private static void bounds(dev.gpulint.bind.Schema.Field f, String prefix, Map<String, String> out) {
        for (var c : f.children().values()) {
            if (c.type() == dev.gpulint.bind.Schema.Type.INT) {
                boolean open = c.max() == Integer.MAX_VALUE || c.max() == Long.MAX_VALUE;
                out.put(prefix + c.name(), c.min() + ".." + (open ? "" : c.max()));
            }
            bounds(c, prefix + c.name() + ".", out);
        }
    }

    @SuppressWarnings("unchecked")
    private static void jsonBounds(Object node, String prefix, Map<String, String> out) {
        Map<String, Object> m = (Map<String, Object>) node;
        if (m.get("items") instanceof Map<?, ?> items && items.containsKey("properties")) m = (Map<String, Object>) items;
        Map<String, Object> props = (Map<String, Object>) m.get("properties");
        if (props == null) return;
        for (var e : props.entrySet()) {
            Map<String, Object> child = (Map<String, Object>) e.getValue();
            java.util.List<Object> forms = child.get("oneOf") instanceof java.util.List<?> l ? (java.util.List<Object>) l : java.util.List.of(child);
            for (Object form : forms) {
                Map<String, Object> f = (Map<String, Object>) form;
                if ("integer".equals(f.get("type"))) {
                    out.put(prefix + e.getKey(), f.get("minimum") + ".." + (f.get("maximum") == null ? "" : f.get("maximum")));
                }
            }
            if (!e.getKey().equals("env")) jsonBounds(child, prefix + e.getKey() + ".", out);
        }
    }

    /** A job's kernels and offload fraction: the schema takes what the binder takes and refuses what it refuses (SYN002). */
    @Test
    void kernelsAndOffloadFractionValidate() throws IOException {
        Schema s = schema("gpulint-manifest.schema.json");
        java.util.function.Function<Map<String, Object>, Boolean> valid = extra -> {
            Map<String, Object> job = new java.util.LinkedHashMap<>(Map.of("kind", "training_job", "name", "j", "cluster", "c"));
            job.putAll(extra);
            try {
                return s.validate(json(job), InputFormat.JSON).isEmpty();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        assertTrue(valid.apply(Map.of()));
        assertTrue(valid.apply(Map.of("kernels", "eager")));
        assertTrue(valid.apply(Map.of("kernels", "fused")));
        assertFalse(valid.apply(Map.of("kernels", "compiled")));
        assertTrue(valid.apply(Map.of("fp8_scaling", "rowwise")));
        assertFalse(valid.apply(Map.of("fp8_scaling", "blockwise")));
        assertTrue(valid.apply(Map.of("offload", Map.of("optimizer", "cpu", "optimizer_fraction", 0.5))));
        assertFalse(valid.apply(Map.of("offload", Map.of("optimizer", "cpu", "optimizer_fraction", 1.5))));
        assertFalse(valid.apply(Map.of("offload", Map.of("optimizer", "cpu", "optimizer_fraction", -0.1))));
    }

    /**
     * model.hybrid.pattern: the schema takes what the binder takes (HybridPattern.valid, at most Schema.HYBRID_LAYERS characters
     * once stripped) and refuses a longer one, within a CPU budget (no backtracking over the 65,537 letters).
     */
    @Test
    @dev.gpulint.testing.CpuLimit(seconds = 30)   // linear matching: a backtracking regex over 65,537 letters would blow it
    void hybridPatternIsBoundedAsTheBinderBoundsIt() throws IOException {
        Schema s = schema("gpulint-manifest.schema.json");
        java.util.function.Function<String, Boolean> valid = pattern -> {
            Map<String, Object> job = Map.of("kind", "training_job", "name", "j", "cluster", "c", "model", Map.of("hybrid", Map.of("pattern", pattern)));
            try {
                return s.validate(json(job), InputFormat.JSON).isEmpty();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        int bound = dev.gpulint.bind.Schema.HYBRID_LAYERS;
        assertTrue(valid.apply("M-M*|M-M*-/*E/*E"));
        assertTrue(valid.apply(" ||M "), "blanks around, empty segments");
        assertFalse(valid.apply("|/"), "no layer");
        assertFalse(valid.apply("M*x"));
        assertTrue(valid.apply("M".repeat(bound)), "the binder's bound, reached");
        assertTrue(valid.apply("M".repeat(bound - 3) + "/*E"), "'/' and its blocks counted, as the binder counts them");
        assertFalse(valid.apply("M".repeat(bound + 1)), "past it");
        assertFalse(valid.apply("M".repeat(bound - 2) + "/*E"), "past it with the MTP blocks");
        assertFalse(valid.apply("M".repeat(bound - 1) + "x"), "a bad last letter within the bound");
        // a space: ASCII blanks around it are trimmed, as the binder trims them (HybridPattern.strip); a no-break space or any
        // other Unicode space is refused wherever it stands, as the binder and Megatron-Core refuse it (\\s took them around it)
        for (String blank : java.util.List.of(" ", "\t", "\n", "\r", "\f", "\u000b")) {
            assertTrue(valid.apply(blank + "M-M*" + blank), "ASCII blank " + (int) blank.charAt(0));
            assertTrue(dev.gpulint.spec.HybridPattern.valid(dev.gpulint.spec.HybridPattern.strip(blank + "M-M*" + blank)));
        }
        for (String space : java.util.List.of("\u00a0", "\u2007", "\u202f", "\u2003", "\u3000", "\u1680", "\u205f", "\u2028", "\ufeff", "\u0085")) {
            for (String written : java.util.List.of("M-M*" + space, space + "M-M*", "M-" + space + "M*")) {
                assertFalse(valid.apply(written), "U+" + Integer.toHexString(space.charAt(0)) + " in '" + written + "'");
                assertFalse(dev.gpulint.spec.HybridPattern.valid(dev.gpulint.spec.HybridPattern.strip(written)), "the binder agrees");
            }
        }
    }

    private static void enums(dev.gpulint.bind.Schema.Field f, String prefix, Map<String, java.util.List<String>> out) {
        for (var c : f.children().values()) {
            if (c.values() != null && !c.values().isEmpty()) out.put(prefix + c.name(), c.values());
            enums(c, prefix + c.name() + ".", out);
        }
    }

    @SuppressWarnings("unchecked")
    private static void jsonEnums(Object node, String prefix, Map<String, java.util.List<String>> out) {
        Map<String, Object> m = (Map<String, Object>) node;
        if (m.containsKey("items")) m = (Map<String, Object>) m.get("items");
        Map<String, Object> props = (Map<String, Object>) m.get("properties");
        if (props == null) return;
        for (var e : props.entrySet()) {
            if (e.getKey().equals("env")) continue;
            Map<String, Object> child = (Map<String, Object>) e.getValue();
            if (child.get("enum") instanceof java.util.List<?> values) out.put(prefix + e.getKey(), (java.util.List<String>) values);
            // a list of names (recompute_modules): the items' choices
            else if (child.get("items") instanceof Map<?, ?> items && items.get("enum") instanceof java.util.List<?> values) {
                out.put(prefix + e.getKey(), (java.util.List<String>) values);
            }
            jsonEnums(child, prefix + e.getKey() + ".", out);
        }
    }

    private static TreeSet<String> paths(dev.gpulint.bind.Schema.Field f, String prefix) {
        TreeSet<String> out = new TreeSet<>();
        for (var c : f.children().values()) {
            out.add(prefix + c.name());
            if (!c.children().isEmpty()) out.addAll(paths(c, prefix + c.name() + "."));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static TreeSet<String> jsonPaths(Object node, String prefix) {
        TreeSet<String> out = new TreeSet<>();
        Map<String, Object> m = (Map<String, Object>) node;
        if (m.containsKey("items")) m = (Map<String, Object>) m.get("items");
        Map<String, Object> props = (Map<String, Object>) m.get("properties");
        if (props == null) return out;
        for (var e : props.entrySet()) {
            out.add(prefix + e.getKey());
            Map<String, Object> child = (Map<String, Object>) e.getValue();
            if (child.containsKey("properties") || (child.get("items") instanceof Map<?, ?> it && ((Map<?, ?>) it).containsKey("properties"))) {
                if (!e.getKey().equals("env")) out.addAll(jsonPaths(child, prefix + e.getKey() + "."));
            }
        }
        return out;
    }

    @Test
    @SuppressWarnings("unchecked")
    void configurationParamsMatchTheRulesMetadata() throws IOException {
        Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(DIR.resolve("gpulint-config.schema.json")));
        Map<String, Object> params = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) root.get("properties"))
                .get("params")).get("properties");
        Map<String, Object> inSchema = new java.util.TreeMap<>();
        params.forEach((rule, v) -> inSchema.put(rule, new TreeSet<>(((Map<String, Object>) ((Map<String, Object>) v).get("properties")).keySet())));
        Map<String, Object> inMetadata = new java.util.TreeMap<>();
        for (var r : dev.gpulint.meta.RuleCatalog.builtIn().all()) {
            if (!r.params().isEmpty()) inMetadata.put(r.id(), new TreeSet<>(r.params().keySet()));
        }
        assertEquals(inMetadata, inSchema, "schema/gpulint-config.schema.json params: one entry per rule parameter of rules/*/ID.yaml");
    }

    @Test
    void theManifestSchemaBranchesOnKind() throws IOException {
        Schema s = schema("gpulint-manifest.schema.json");
        // a job's own mistake is reported against the job's schema, not as "kind: 'cluster' was expected"
        var job = s.validate(json(Map.of("kind", "training_job", "name", "j", "nodes", "two")), InputFormat.JSON);
        assertFalse(job.isEmpty());
        assertTrue(job.stream().allMatch(e -> e.getInstanceLocation().toString().equals("/nodes")), job.toString());
        // a typo in kind is one error, about kind
        var typo = s.validate(json(Map.of("kind", "trainingjob", "name", "j")), InputFormat.JSON);
        assertEquals(1, typo.size(), typo.toString());
        assertTrue(typo.get(0).getInstanceLocation().toString().contains("kind"), typo.toString());
    }

    @Test
    @SuppressWarnings("unchecked")
    void configurationRuleNamesAreTheCatalogsAndUnknownOnesFail() throws IOException {
        Schema s = schema("gpulint-config.schema.json");
        assertFalse(s.validate("{\"rules\": {\"NET999\": \"off\"}}", InputFormat.JSON).isEmpty(), "unknown rule ID");
        assertTrue(s.validate("{\"rules\": {\"NET005\": false, \"pipeline-bubble\": \"note\"}}", InputFormat.JSON).isEmpty(),
                "off read as false by YAML 1.1 tools is accepted, and rule names too");
        Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(DIR.resolve("gpulint-config.schema.json")));
        Map<String, Object> rules = (Map<String, Object>) ((Map<String, Object>) root.get("properties")).get("rules");
        TreeSet<String> inSchema = new TreeSet<>((java.util.List<String>) ((Map<String, Object>) rules.get("propertyNames")).get("enum"));
        TreeSet<String> inCatalog = new TreeSet<>();
        for (var r : dev.gpulint.meta.RuleCatalog.builtIn().all()) { inCatalog.add(r.id()); inCatalog.add(r.name()); }
        assertEquals(inCatalog, inSchema, "schema/gpulint-config.schema.json rules: every rule ID and name of the catalog");
    }
}
