package dev.gpulint.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * What gpulint trusts of what it finds on the disk (SECURITY.md): a configuration's {@code rule_paths} are DRL whose
 * consequences are Java, run as the user who runs gpulint, so a configuration or a rules folder that another user
 * could have written is not used, as git refuses a repository of another owner since CVE-2022-24765. Trusted: a file
 * or folder owned by the user or by root (root can already run anything as anyone), that no other user may write (no
 * write bit for others; none for the group unless the group is the owner's own, of the same name, as Debian's user
 * private groups are). A folder named in the user's allow list, {@code ~/.config/gpulint/trusted-folders} (one
 * absolute folder a line; {@code #} starts a comment; a folder covers the folders below it; {@code *} covers all),
 * is trusted whoever owns it. Where the file system has no owners (Windows), everything is trusted.
 */
public final class Trust {
    private Trust() {}

    /** The allow list's place; the system property {@code gpulint.trusted-folders} moves it (tests). */
    public static Path allowList() {
        String p = System.getProperty("gpulint.trusted-folders");
        if (p != null && !p.isEmpty()) return Path.of(p);
        return Path.of(System.getProperty("user.home"), ".config", "gpulint", "trusted-folders");
    }

    /** The allow list's place as the messages write it. */
    static String allowListShown() {
        Path p = allowList();
        Path home = Path.of(System.getProperty("user.home"));
        return p.startsWith(home) ? "~/" + home.relativize(p) : p.toString();
    }

    /** The entries of the allow list; an untrusted list (another user could write it) counts as empty. */
    static List<String> allowed() {
        Path list = allowList();
        List<String> out = new ArrayList<>();
        try {
            if (!Files.isRegularFile(list) || problem(list) != null) return out;
            for (String line : dev.gpulint.core.RegularFiles.readString(list, 1 << 20).split("\n")) {
                int hash = line.indexOf('#');
                String f = (hash >= 0 ? line.substring(0, hash) : line).strip();
                if (!f.isEmpty()) out.add(f);
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: nothing is allowed by it
        }
        return out;
    }

    /** Whether the allow list names {@code folder} or a folder above it. */
    public static boolean allowed(Path folder) {
        Path f = folder.toAbsolutePath().normalize();
        for (String a : allowed()) {
            if (a.equals("*")) return true;
            try {
                Path p = Path.of(a);
                if (p.isAbsolute() && f.startsWith(p.normalize())) return true;
            } catch (RuntimeException e) {
                // not a path: ignored
            }
        }
        return false;
    }

    private static final long UNKNOWN = -1;
    private static volatile long ownUid = Long.MIN_VALUE;

    /** This process's user id, or -1 where the system has none to tell. */
    static long ownUid() {
        long u = ownUid;
        if (u != Long.MIN_VALUE) return u;
        try {
            u = new com.sun.security.auth.module.UnixSystem().getUid();
        } catch (LinkageError | RuntimeException e) {
            try {
                u = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
            } catch (IOException | RuntimeException | LinkageError e2) {
                u = UNKNOWN;
            }
        }
        ownUid = u;
        return u;
    }

    /** The owner's user id of {@code p} itself (a link's own), or -1 where the file system has none. */
    static long uid(Path p) throws IOException {
        try {
            return ((Number) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return UNKNOWN;
        }
    }

    /** Whether the user owns {@code folder} (the upward search for a configuration stops below a folder of someone else). */
    static boolean ownedByUser(Path folder) {
        try {
            long me = ownUid();
            long owner = uid(folder);
            return me == UNKNOWN || owner == UNKNOWN || owner == me;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Why {@code p} (a file or folder; a symbolic link and what it leads to) cannot be trusted, or null: "it belongs to
     * user mallory (uid 1001)", "every user may write it (rw-rw-rw-)", "the group staff may write it (rw-rw-r--)".
     */
    public static String problem(Path p) throws IOException {
        String own = problemOf(p);
        if (own != null || !Files.isSymbolicLink(p)) return own;
        Path target = p.toRealPath();
        String t = problemOf(target);
        return t == null ? null : "it leads to " + target + ", and " + t;
    }

    private static String problemOf(Path p) throws IOException {
        long me = ownUid();
        long owner = uid(p);
        if (me == UNKNOWN || owner == UNKNOWN) return null;
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return null;
        }
        if (owner != me && owner != 0) {
            String name = a.owner().getName();
            return "it belongs to " + (name.equals(String.valueOf(owner)) ? "uid " + owner : "user " + name + " (uid " + owner + ")")
                    + ", not to you";
        }
        if (a.isSymbolicLink()) return null;
        String mode = PosixFilePermissions.toString(a.permissions());
        boolean sticky = a.isDirectory() && sticky(p);
        if (a.permissions().contains(PosixFilePermission.OTHERS_WRITE) && !sticky) return "every user may write it (" + mode + ")";
        if (a.permissions().contains(PosixFilePermission.GROUP_WRITE) && !sticky && !a.group().getName().equals(a.owner().getName())) {
            return "the group " + a.group().getName() + " may write it (" + mode + ")";
        }
        return null;
    }

    /** A folder's sticky bit (others may not replace what they do not own in it: /tmp). */
    private static boolean sticky(Path folder) {
        try {
            return (((Number) Files.getAttribute(folder, "unix:mode", LinkOption.NOFOLLOW_LINKS)).intValue() & 01000) != 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The most entries of a rules folder looked at; a larger folder is refused (a team's rules are a few dozen files). */
    static final int MAX_ENTRIES = 10_000;

    /**
     * Why a rules folder cannot be trusted, or null: the folder, and every file and folder in it at any depth (each
     * DRL in it runs), checked as {@link #problem}. Names the entry at fault, relative to the folder.
     */
    static String folderProblem(Path dir) throws IOException {
        String top = problem(dir);
        if (top != null) return top;
        Deque<Path> todo = new ArrayDeque<>();
        todo.add(dir);
        int seen = 0;
        while (!todo.isEmpty()) {
            Path d = todo.poll();
            try (DirectoryStream<Path> s = Files.newDirectoryStream(d)) {
                for (Path e : s) {
                    if (++seen > MAX_ENTRIES) return "it holds more than " + MAX_ENTRIES + " files and folders, more than gpulint checks";
                    String why = problem(e);
                    if (why != null) return dir.relativize(e) + " in it: " + why;
                    if (Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)) todo.add(e);
                }
            } catch (java.nio.file.DirectoryIteratorException e) {
                throw e.getCause();       // a folder that cannot be listed: the rules loader says so where it is named
            }
        }
        return null;
    }

    /**
     * Where the upward search for a configuration ends, after looking in {@code folder}: at the repository's top (it
     * holds {@code .git}), and below a folder the user does not own.
     */
    static boolean searchEnds(Path folder) {
        if (Files.exists(folder.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) return true;
        Path up = folder.getParent();
        return up != null && !ownedByUser(up);
    }

    /**
     * A configuration as far as it may be used (SECURITY.md): nothing of it when the file is another user's or
     * others may write it; without a rules folder of {@code rule_paths} that is; and without any {@code rule_paths}
     * when it was found by searching (not {@code named}) in a folder above none of the {@code consent} folders (the
     * working folder; an editor's workspace folders): rules are Java code that runs as the user, so they run only
     * from a configuration the user chose. A folder of the allow list ({@link #allowList}) is trusted. Each
     * refusal is a TOOL001 finding saying why and how to allow it.
     *
     * @param path the configuration's file, as found or given
     */
    public static Config apply(Config c, Path path, boolean named, List<Path> consent) {
        if (c.file() == null || path == null) return c;
        Path base = c.base();
        String file = c.file();
        List<String> rulePaths = c.rulePaths();
        String allow = "; if you trust it, add its folder to " + allowListShown() + " (one folder a line)";
        try {
            String why = problem(path);
            if (why != null && !allowed(base)) {
                List<dev.gpulint.core.Finding> p = new ArrayList<>();
                p.add(dev.gpulint.core.Finding.of("TOOL001", dev.gpulint.core.Span.at(file, 1, 1), "config/trust", "the configuration '" + file
                        + "' was not used: " + why + ", so another user could make gpulint run their rules as you"
                        + allow + ", or make it yours and writable by you alone (chown, chmod go-w)"));
                return new Config(base, file, List.of(), List.of(), p);
            }
        } catch (IOException e) {
            return c;      // gone since it was found: load() reports what it could not read
        }
        if (rulePaths.isEmpty()) return c;
        List<dev.gpulint.core.Finding> problems = new ArrayList<>(c.problems());
        List<String> kept = new ArrayList<>();
        boolean consented = named || allowed(base)
                || consent.stream().anyMatch(f -> f.toAbsolutePath().normalize().startsWith(base));
        if (!consented) {
            String first = rulePaths.get(0);
            problems.add(dev.gpulint.core.Finding.of("TOOL001", c.valueSpan("rule_paths", first), "config/trust", "the rules of '" + file
                    + "' (rule_paths) were not run: the configuration was found by searching upwards from the linted files, "
                    + "outside the folder gpulint runs in, and rules are Java code that runs as you; run gpulint from " + base
                    + " (or below it), name it with --config" + allow));
            return with(c, problems, kept);
        }
        for (String r : rulePaths) {
            Path dir = base.resolve(r);
            String why;
            try {
                why = Files.exists(dir) ? folderProblem(dir) : null;
            } catch (IOException e) {
                why = null;      // UserRules reports a folder it cannot read
            }
            if (why != null && !allowed(dir)) {
                problems.add(dev.gpulint.core.Finding.of("TOOL001", c.valueSpan("rule_paths", r), "config/trust", "the rules folder '" + r
                        + "' of '" + file + "' was not loaded: " + why + ", so another user could make gpulint run their rules as you" + allow
                        + ", or make it yours and writable by you alone (chown -R, chmod -R go-w)"));
            } else {
                kept.add(r);
            }
        }
        return kept.size() == rulePaths.size() ? c : with(c, problems, kept);
    }

    private static Config with(Config c, List<dev.gpulint.core.Finding> problems, List<String> rulePaths) {
        return new Config(c.base(), c.file(), c.include(), c.exclude(), c.rules(), List.copyOf(rulePaths), c.params(), c.catalog(),
                List.copyOf(problems), c.jobClusters(), c.valueSpans(), c.evidence(), c.plan(), c.fix());
    }

}
