package dev.gpulint.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * What an editor shows from the JSON Schemas (yaml-language-server): a description on every property
 * (the hover), and for every pattern a message that names the field and the form it wants
 * (patternErrorMessage), never the raw regular expression.
 */
class JsonSchemaHelpTest {

    private static final Path DIR = Path.of("..", "schema");

    @SuppressWarnings("unchecked")
    private static void walk(Object node, String field, String path, List<String> noDescription, List<String> rawPatterns) {
        if (node instanceof Map<?, ?> m) {
            Map<String, Object> map = (Map<String, Object>) m;
            if (map.get("pattern") instanceof String && field != null) {
                Object message = map.get("patternErrorMessage");
                if (!(message instanceof String s) || !s.startsWith(field + " must ")) rawPatterns.add(path + " (" + message + ")");
            }
            if (map.get("properties") instanceof Map<?, ?> props) {
                for (Map.Entry<?, ?> e : props.entrySet()) {
                    String k = (String) e.getKey();
                    if (e.getValue() instanceof Map<?, ?> v) {
                        Object d = v.get("description");
                        if (!(d instanceof String s) || s.isBlank()) noDescription.add(path + "." + k);
                    }
                    walk(e.getValue(), k, path + "." + k, noDescription, rawPatterns);
                }
            }
            for (Map.Entry<String, Object> e : map.entrySet()) {
                if (!e.getKey().equals("properties")) walk(e.getValue(), e.getKey().equals("definitions") ? null : field, path + "/" + e.getKey(),
                        noDescription, rawPatterns);
            }
        } else if (node instanceof List<?> l) {
            for (Object o : l) walk(o, field, path, noDescription, rawPatterns);
        }
    }

    @Test
    void everyPropertyHasADescriptionAndEveryPatternAMessageNamingItsField() throws IOException {
        int properties = 0;
        for (String name : new String[] {"gpulint-manifest.schema.json", "gpulint-config.schema.json"}) {
            Object schema = new Load(LoadSettings.builder().build()).loadFromString(Files.readString(DIR.resolve(name)));
            List<String> noDescription = new ArrayList<>();
            List<String> rawPatterns = new ArrayList<>();
            walk(schema, null, name, noDescription, rawPatterns);
            assertEquals(List.of(), noDescription, "properties without a description (an empty hover)");
            assertEquals(List.of(), rawPatterns, "patterns whose error would be the raw regular expression");
            properties += Files.readString(DIR.resolve(name)).split("\"description\"").length - 1;
        }
        assertTrue(properties > 100, "both schemas describe their properties: " + properties);
    }
}
