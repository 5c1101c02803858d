package dev.gpulint.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rule metadata is found in a jar installed or cloned in a folder with a space, '#' or "%20" in its name (#25). */
class RuleCatalogJarTest {

    @Test
    void aJarInAFolderWithSpacesHashAndPercentIsRead(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("my tools #1 %20"));
        Path jar = folder.resolve("gpulint-all.jar");
        try (OutputStream f = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(f)) {
            out.putNextEntry(new JarEntry("rules/par/PAR006.yaml"));
            try (InputStream in = RuleCatalog.class.getClassLoader().getResourceAsStream("rules/par/PAR006.yaml")) {
                in.transferTo(out);
            }
            out.closeEntry();
        }
        // the URI the class loader gives for rules/ inside that jar
        URI uri = new URL("jar:" + jar.toUri() + "!/rules").toURI();
        assertTrue(uri.toString().contains("my%20tools%20%231%20%2520"), uri.toString());
        assertEquals(jar, RuleCatalog.jarOf(uri));
        RuleCatalog c = RuleCatalog.fromJar(uri);
        assertEquals("pipeline-bubble", c.get("PAR006").orElseThrow().name());
        assertEquals(1, c.all().size());
    }

    @Test
    void aPlainJarPathIsUnchanged() throws IOException {
        assertEquals(Path.of("/opt/gpulint/lib/g.jar"), RuleCatalog.jarOf(URI.create("jar:file:/opt/gpulint/lib/g.jar!/rules")));
    }
}
