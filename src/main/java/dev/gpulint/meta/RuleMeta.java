package dev.gpulint.meta;

import dev.gpulint.core.Level;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule's metadata (rules/&lt;family&gt;/ID.yaml) and its help page
 * (docs/rules/ID.md): what `gpulint rules`, `gpulint explain` and SARIF's
 * rules[] show. {@code params} are the rule's parameters with their defaults, in the order
 * ID.yaml lists them (a rule reads them as RuleParam facts; .gpulint.yaml may override them).
 * {@code messages} are its message templates by key ({@link Messages}), in the order written.
 * {@code layout} says how the plan's candidate search reads the rule's findings about a candidate layout
 * ({@code layout:} in ID.yaml): {@link #LAYOUT_ERRORS} (its errors reject the layout), {@link #LAYOUT_ANY} (any finding
 * of it does), or null (the rule judges no layout: its findings are the cluster's).
 */
public record RuleMeta(String id, String name, Level level, String title, String description,
                       String remediation, String since, List<String> tags, String family, String engine,
                       String helpMarkdown, Map<String, Double> params, Map<String, String> messages, String layout) {

    /** {@code layout: errors}: an error of the rule about a candidate layout rejects it (PAR, NET, CONSIST). */
    public static final String LAYOUT_ERRORS = "errors";
    /** {@code layout: any}: any finding of the rule about a candidate rejects it, whatever its level (MEM: no plan runs out of memory). */
    public static final String LAYOUT_ANY = "any";

    public RuleMeta {
        params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
        messages = messages == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(messages));
        if (layout != null && !layout.equals(LAYOUT_ERRORS) && !layout.equals(LAYOUT_ANY))
            throw new IllegalArgumentException(id + ": layout: must be " + LAYOUT_ERRORS + " or " + LAYOUT_ANY + ", not " + layout);
    }

    /** Judging no layout ({@code layout:} left out). */
    public RuleMeta(String id, String name, Level level, String title, String description, String remediation, String since,
                    List<String> tags, String family, String engine, String helpMarkdown, Map<String, Double> params,
                    Map<String, String> messages) {
        this(id, name, level, title, description, remediation, since, tags, family, engine, helpMarkdown, params, messages, null);
    }

    /** Without message templates (a user rule that reports plain messages). */
    public RuleMeta(String id, String name, Level level, String title, String description, String remediation, String since,
                    List<String> tags, String family, String engine, String helpMarkdown, Map<String, Double> params) {
        this(id, name, level, title, description, remediation, since, tags, family, engine, helpMarkdown, params, Map.of(), null);
    }

    /** Without parameters (a user rule whose metadata states none). */
    public RuleMeta(String id, String name, Level level, String title, String description, String remediation, String since,
                    List<String> tags, String family, String engine, String helpMarkdown) {
        this(id, name, level, title, description, remediation, since, tags, family, engine, helpMarkdown, Map.of(), Map.of(), null);
    }

    /** SARIF wants PascalCase rule names: bit-byte-mixup → BitByteMixup. */
    public String pascalName() {
        StringBuilder sb = new StringBuilder();
        for (String part : name.split("-")) {
            if (!part.isEmpty()) sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return sb.toString();
    }
}
