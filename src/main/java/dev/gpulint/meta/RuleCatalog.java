package dev.gpulint.meta;

import dev.gpulint.core.Level;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** Every rule's metadata, read from the rules/ resources, in ID order. */
public class RuleCatalog {

    /** Every rule, once listed; null until someone needs them all (SARIF, `gpulint rules`). */
    private volatile Map<String, RuleMeta> rules;
    /** Rules read one by one (a text report needs only the rules that fired). */
    private final Map<String, Optional<RuleMeta>> single = new java.util.concurrent.ConcurrentHashMap<>();
    private final boolean builtInResources;

    private static final RuleCatalog BUILT_IN = new RuleCatalog(null, true);

    RuleCatalog(Map<String, RuleMeta> rules) { this(rules, false); }

    private RuleCatalog(Map<String, RuleMeta> rules, boolean builtInResources) {
        this.rules = rules;
        this.builtInResources = builtInResources;
    }

    public static RuleCatalog builtIn() { return BUILT_IN; }

    public Optional<RuleMeta> get(String id) {
        Map<String, RuleMeta> all = rules;
        if (all != null || !builtInResources) return Optional.ofNullable(all == null ? null : all.get(id));
        return single.computeIfAbsent(id, RuleCatalog::loadOne);
    }

    public Collection<RuleMeta> all() {
        Map<String, RuleMeta> all = rules;
        if (all == null) {
            synchronized (this) {
                if (rules == null) rules = load().rules;
                all = rules;
            }
        }
        return all.values();
    }

    /** This catalog and a team's own rules (their metadata wins on a clash of IDs, which the caller reports). */
    public RuleCatalog withExtra(List<RuleMeta> extra) {
        if (extra.isEmpty()) return this;
        RuleCatalog base = this;
        Map<String, RuleMeta> mine = new LinkedHashMap<>();
        for (RuleMeta r : extra) mine.put(r.id(), r);
        return new RuleCatalog(null, false) {
            @Override public Optional<RuleMeta> get(String id) {
                RuleMeta r = mine.get(id);
                return r != null ? Optional.of(r) : base.get(id);
            }

            @Override public Collection<RuleMeta> all() {
                List<RuleMeta> all = new ArrayList<>(base.all());
                all.addAll(mine.values());
                return all;
            }
        };
    }

    /** One rule's metadata, found by its ID: rules/<family>/<ID>.yaml, the family being the ID's letters. */
    private static Optional<RuleMeta> loadOne(String id) {
        if (!id.matches("[A-Z]+[0-9]+")) return Optional.empty();
        String family = id.replaceAll("[0-9]", "").toLowerCase(java.util.Locale.ROOT);
        try (InputStream in = RuleCatalog.class.getClassLoader().getResourceAsStream("rules/" + family + "/" + id + ".yaml")) {
            if (in == null) return Optional.empty();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return build(List.of(Map.entry(family, text))).rules.values().stream().findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RuleCatalog load() {
        URL root = RuleCatalog.class.getClassLoader().getResource("rules");
        if (root == null) throw new IllegalStateException("rule metadata missing from the classpath");
        try {
            URI uri = root.toURI();
            if (uri.getScheme().equals("jar")) return fromJar(uri);
            return fromDirectory(Path.of(uri));
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot read rule metadata: " + e.getMessage(), e);
        }
    }

    private static final java.util.regex.Pattern META = java.util.regex.Pattern.compile("rules/([a-z]+)/([A-Z]+[0-9]+)\\.yaml");

    /**
     * Lists rules/ in the jar the classes came from. The class loader has that jar open already,
     * and java.util.zip shares the open file, so this costs a scan of entry names, not a second read.
     */
    static RuleCatalog fromJar(URI uri) throws IOException {
        Path jar = jarOf(uri);
        List<String[]> found = new ArrayList<>();
        ClassLoader cl = RuleCatalog.class.getClassLoader();
        try (java.util.jar.JarFile jf = new java.util.jar.JarFile(jar.toFile())) {
            for (var e = jf.entries(); e.hasMoreElements(); ) {
                java.util.regex.Matcher m = META.matcher(e.nextElement().getName());
                if (m.matches()) found.add(new String[] {m.group(1), m.group(2)});
            }
        }
        List<Map.Entry<String, String>> texts = new ArrayList<>();
        for (String[] f : found) {
            try (InputStream in = cl.getResourceAsStream("rules/" + f[0] + "/" + f[1] + ".yaml")) {
                texts.add(Map.entry(f[0], new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            }
        }
        return build(texts);
    }

    /**
     * The jar file of a {@code jar:file:...!/entry} URI. The URI's raw (still percent-encoded) part is
     * taken: decoding it first and parsing the result again breaks on a space, '#' or "%20" in the
     * folder gpulint is installed or cloned in.
     */
    static Path jarOf(URI uri) {
        String s = uri.getRawSchemeSpecificPart();
        int bang = s.lastIndexOf("!/");
        return Path.of(URI.create(bang < 0 ? s : s.substring(0, bang)));
    }

    static RuleCatalog fromDirectory(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> META.matcher("rules/" + p.getParent().getFileName() + "/" + p.getFileName()).matches())
                     .sorted(Comparator.comparing(Path::toString)).toList();
        }
        List<Map.Entry<String, String>> texts = new ArrayList<>();
        for (Path p : files) texts.add(Map.entry(p.getParent().getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8)));
        return build(texts);
    }

    /** @param texts (family, metadata YAML) pairs */
    @SuppressWarnings("unchecked")
    private static RuleCatalog build(List<Map.Entry<String, String>> texts) {
        List<RuleMeta> metas = new ArrayList<>();
        Load load = new Load(LoadSettings.builder().build());
        for (Map.Entry<String, String> t : texts) {
            Map<String, Object> m = (Map<String, Object>) load.loadFromString(t.getValue());
            String id = (String) m.get("id");
            metas.add(new RuleMeta(id, (String) m.get("name"), Level.parse((String) m.get("level")),
                    (String) m.get("title"), trim(m.get("description")), trim(m.get("remediation")),
                    String.valueOf(m.getOrDefault("since", "0.1.0")),
                    List.copyOf((List<String>) m.getOrDefault("tags", List.of())),
                    t.getKey(), (String) m.getOrDefault("engine", "drools"),
                    helpPage(id), params(m.get("params")), messages(m.get("messages")), (String) m.get("layout")));
        }
        metas.sort(Comparator.comparing(RuleMeta::family, Comparator.comparingInt(RuleCatalog::familyRank))
                .thenComparing(RuleMeta::id, Comparator.comparing((String s) -> s.replaceAll("[0-9]", ""))
                        .thenComparingInt(s -> Integer.parseInt(s.replaceAll("[^0-9]", "")))));
        Map<String, RuleMeta> byId = new LinkedHashMap<>();
        for (RuleMeta r : metas) byId.put(r.id(), r);
        return new RuleCatalog(byId);
    }


    /** ID.yaml {@code params:} — parameter name to default number — in the order written. */
    public static Map<String, Double> params(Object raw) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (raw instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (v instanceof Number n) out.put(String.valueOf(k), n.doubleValue());
                else throw new IllegalStateException("rule parameter " + k + " must be a number, not " + v);
            });
        }
        return out;
    }

    /**
     * ID.yaml {@code messages:} — key to template ({@link Messages}) — in the order written, with every
     * {@code {@key}} replaced by the template under key (a part several messages share); each must parse.
     */
    public static Map<String, String> messages(Object raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null) return out;
        if (!(raw instanceof Map<?, ?> m)) throw new IllegalStateException("messages: must map keys to templates, not " + raw);
        m.forEach((k, v) -> {
            if (!(v instanceof String t)) throw new IllegalStateException("message " + k + " must be a template text, not " + v);
            out.put(String.valueOf(k), t.strip());
        });
        out.replaceAll((k, t) -> included(t, out, 0));
        out.values().forEach(Messages::arguments);
        return out;
    }

    private static final java.util.regex.Pattern INCLUDE = java.util.regex.Pattern.compile("\\{@([A-Za-z0-9_-]+)}");

    private static String included(String template, Map<String, String> all, int depth) {
        java.util.regex.Matcher m = INCLUDE.matcher(template);
        if (!m.find()) return template;
        if (depth > 4) throw new IllegalStateException("messages include each other more than 4 deep: " + template);
        StringBuilder sb = new StringBuilder();
        do {
            String part = all.get(m.group(1));
            if (part == null) throw new IllegalStateException("message part {@" + m.group(1) + "} is not in messages:");
            m.appendReplacement(sb, java.util.regex.Matcher.quoteReplacement(included(part, all, depth + 1)));
        } while (m.find());
        return m.appendTail(sb).toString();
    }

    private static final List<String> FAMILY_ORDER = List.of("syn", "unit", "hw", "par", "net", "nccl", "mem", "consist", "ops", "evid", "tool");

    private static int familyRank(String f) {
        int i = FAMILY_ORDER.indexOf(f);
        return i < 0 ? FAMILY_ORDER.size() : i;
    }

    private static String trim(Object o) { return o == null ? "" : o.toString().trim(); }

    private static String helpPage(String id) {
        try (InputStream in = RuleCatalog.class.getClassLoader().getResourceAsStream("docs/rules/" + id + ".md")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
