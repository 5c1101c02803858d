package dev.gpulint.meta;

import dev.gpulint.core.Level;
import java.util.List;

/**
 * A rule's metadata (rules/&lt;family&gt;/ID.yaml) and its help page
 * (docs/rules/ID.md): what `gpulint rules`, `gpulint explain` and SARIF's
 * rules[] show. {@code params} are the rule's parameters with their defaults, in the order
 * ID.yaml lists them (a rule reads them as RuleParam facts; .gpulint.yaml may override them).
 */
public record RuleMeta(String id, String name, Level level, String title, String description,
                       String remediation, String since, List<String> tags, String family, String engine,
                       String helpMarkdown, java.util.Map<String, Double> params) {

    public RuleMeta {
        params = params == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    }

    /** Without parameters (a user rule whose metadata states none). */
    public RuleMeta(String id, String name, Level level, String title, String description, String remediation, String since,
                    List<String> tags, String family, String engine, String helpMarkdown) {
        this(id, name, level, title, description, remediation, since, tags, family, engine, helpMarkdown, java.util.Map.of());
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
