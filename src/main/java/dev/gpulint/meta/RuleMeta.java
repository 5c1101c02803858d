package dev.gpulint.meta;

import dev.gpulint.core.Level;
import java.util.List;

/**
 * A rule's metadata (rules/&lt;family&gt;/ID.yaml) and its help page
 * (docs/rules/ID.md): what `gpulint rules`, `gpulint explain` and SARIF's
 * rules[] show.
 */
public record RuleMeta(String id, String name, Level level, String title, String description,
                       String remediation, String since, List<String> tags, String family, String engine,
                       String helpMarkdown) {

    /** SARIF wants PascalCase rule names: bit-byte-mixup → BitByteMixup. */
    public String pascalName() {
        StringBuilder sb = new StringBuilder();
        for (String part : name.split("-")) {
            if (!part.isEmpty()) sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return sb.toString();
    }
}
