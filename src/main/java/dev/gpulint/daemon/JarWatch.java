package dev.gpulint.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/** The jar a daemon runs: whether a build or an upgrade has replaced it since the daemon started. */
final class JarWatch {
    private final Path jar;
    private final String first;
    private String last;

    JarWatch(Path jar) {
        this.jar = jar;
        this.first = look();
        this.last = first;
    }

    /** Size, time and file identity (inode), or "gone". */
    private String look() {
        try {
            BasicFileAttributes a = Files.readAttributes(jar, BasicFileAttributes.class);
            return a.size() + "/" + a.lastModifiedTime().toMillis() + "/" + a.fileKey();
        } catch (IOException e) {
            return "gone";
        }
    }

    boolean changed() { return !Objects.equals(first, look()); }

    /** Whether the jar looks as it did at the previous call (a build has finished writing it), and is there. */
    boolean settled() {
        String now = look();
        boolean same = now.equals(last) && !now.equals("gone");
        last = now;
        return same;
    }

    /** Whether the client's jar is this daemon's jar. */
    boolean isSame(Path other) {
        try {
            return Files.isSameFile(jar, other);
        } catch (IOException e) {
            return false;
        }
    }
}
