package dev.gpulint.meta;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * gpulint's version, from the one place the build writes it ({@code gpulint-version.properties},
 * filtered from the POM's version into the core jar). The command line and the Maven plugin both
 * read it here, so their reports name the same version; "dev" only when the resource is missing
 * (classes run from an IDE without Maven's resource filtering).
 */
public final class Version {
    private static volatile String current;

    private Version() {}

    public static String current() {
        String v = current;
        if (v == null) current = v = load();
        return v;
    }

    private static String load() {
        try (InputStream in = Version.class.getClassLoader().getResourceAsStream("gpulint-version.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            String v = p.getProperty("version", "dev").strip();
            return v.isEmpty() || v.startsWith("${") ? "dev" : v;
        } catch (IOException e) {
            return "dev";
        }
    }
}
