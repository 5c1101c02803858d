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
 */
public record RuleMeta(String id, String name, Level level, String title, String description,
                       String remediation, String since, List<String> tags, String family, String engine,
                       String helpMarkdown, Map<String, Double> params, Map<String, String> messages) {

    public RuleMeta {
        params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
        messages = messages == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(messages));
    }

    /** Without message templates (a user rule that reports plain messages). */
    public RuleMeta(String id, String name, Level level, String title, String description, String remediation, String since,
                    List<String> tags, String family, String engine, String helpMarkdown, Map<String, Double> params) {
        this(id, name, level, title, description, remediation, since, tags, family, engine, helpMarkdown, params, Map.of());
    }

    /** Without parameters (a user rule whose metadata states none). */
    public RuleMeta(String id, String name, Level level, String title, String description, String remediation, String since,
                    List<String> tags, String family, String engine, String helpMarkdown) {
        this(id, name, level, title, description, remediation, since, tags, family, engine, helpMarkdown, Map.of(), Map.of());
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
