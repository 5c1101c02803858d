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

    /** The project's home page (the root POM's {@code gpulint.home}), as SARIF's {@code tool.driver.informationUri}. */
    public static final String HOME_FALLBACK = "https://github.com/gpulint/gpulint";

    public static String current() {
        String v = current;
        if (v == null) current = v = load("version", "dev");
        return v;
    }

    /** The home page the build wrote, or {@link #HOME_FALLBACK} when the resource is missing or unfiltered. */
    public static String home() {
        return load("home", HOME_FALLBACK);
    }

    private static String load(String key, String fallback) {
        try (InputStream in = Version.class.getClassLoader().getResourceAsStream("gpulint-version.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            String v = p.getProperty(key, fallback).strip();
            return v.isEmpty() || v.startsWith("${") ? fallback : v;
        } catch (IOException e) {
            return fallback;
        }
    }
}
