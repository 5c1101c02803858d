package dev.gpulint.settle;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpulint.core.Fingerprints;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A baseline is a SARIF file of an earlier run (`--write-baseline`): the fingerprints of its results
 * are accepted, and only findings with other fingerprints are reported. Fingerprints come from the rule,
 * the file and the logical identity of what was found, not line numbers, so editing lines above a
 * finding keeps it in the baseline.
 */
public final class Baseline {
    private Baseline() {}

    public static Set<String> read(Path sarif) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        try (JsonParser p = new JsonFactory().createParser(sarif.toFile())) {
            for (JsonToken t; (t = p.nextToken()) != null; ) {
                if (t == JsonToken.FIELD_NAME && Fingerprints.KEY.equals(p.currentName())) {
                    if (p.nextToken() == JsonToken.VALUE_STRING) out.add(p.getText());
                }
            }
        }
        return out;
    }
}
