package dev.gpulint.app;

import dev.gpulint.config.Config;
import dev.gpulint.lint.Discovery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** Whether a report written to a path would destroy an input of the run ({@link Project#overwrites}). */
final class Overwrites {
    private Overwrites() {}

    static String why(Path base, Path target, Path baselineFile, Path configUsed, List<String> paths, Set<Path> inputs) {
        Path t = base.resolve(target).toAbsolutePath().normalize();
        if (!java.nio.file.Files.isRegularFile(t)) return null;
        if (baselineFile != null && same(t, baselineFile)) return "it is the baseline this run reads (--baseline)";
        if (configUsed != null && same(t, configUsed)) return "it is the configuration file";
        for (String p : paths) {
            Path given = base.resolve(dev.gpulint.core.PathNames.given(p, base)).toAbsolutePath().normalize();
            if (java.nio.file.Files.isRegularFile(given) && same(t, given)) return "it is a file named to be linted";
        }
        for (Path p : inputs) if (same(t, p)) return "it is an input of this run (" + new Discovery(Config.none(), base).display(p) + ")";
        return null;
    }

    /** The same file (by path, or through a link). */
    private static boolean same(Path a, Path b) {
        if (a.equals(b)) return true;
        if (a.getFileName() == null || b.getFileName() == null) return false;
        try {
            return java.nio.file.Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }
}
