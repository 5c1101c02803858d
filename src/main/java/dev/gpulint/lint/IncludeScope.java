package dev.gpulint.lint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where the configuration's {@code include} may read: inside the project (the configuration's folder),
 * links resolved, unless the command line allows more ({@code --include-outside-project}). A
 * configuration comes with the repository being linted, so by default it makes gpulint read nothing
 * outside it; the file system's root is never walked, allowed or not.
 */
final class IncludeScope {
    private IncludeScope() {}

    /** Why an existing include path may not be read, as the end of a sentence about it, or null. */
    static String problem(Path p, Path projectFolder, boolean outsideAllowed) {
        Path abs = p.toAbsolutePath().normalize();
        Path real = real(abs);
        if (abs.getParent() == null || real.getParent() == null) {
            return "names the file system's root, which gpulint never walks; name the folders of your cluster files";
        }
        if (outsideAllowed) return null;
        Path project = projectFolder.toAbsolutePath().normalize();
        if (abs.startsWith(project) && real.startsWith(real(project))) return null;
        return "lies outside the project (the configuration's folder" + (abs.startsWith(project) ? "; it leads out through a symbolic link" : "")
                + "): a configuration comes with the repository, so gpulint reads nothing outside it for one; "
                + "pass --include-outside-project to allow it";
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }
}
