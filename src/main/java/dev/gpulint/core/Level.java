package dev.gpulint.core;

import java.util.Locale;

/** Finding levels, named and ordered as SARIF's (error > warning > note). */
public enum Level {
    NOTE, WARNING, ERROR;

    public String id() { return name().toLowerCase(Locale.ROOT); }

    public static Level parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }
}
