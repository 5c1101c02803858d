package dev.gpulint.lint;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import dev.gpulint.core.PathNames;
import dev.gpulint.core.RegularFiles;
import dev.gpulint.core.Span;
import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns command-line paths into files to lint: folders recurse (sorted, so
 * output never depends on file-system order; hidden folders, target/ and
 * node_modules/ skipped; links to folders or files outside the folder given not followed); a path that cannot
 * be read, or is no regular file (a FIFO, a device), is a finding, not a crash or a hang; a file is
 * read through a bounded stream, never more than the maximum file size.
 */
public final class Discovery {
    private static final Set<String> SKIP = Set.of("target", "node_modules");

    private final List<SourceFile> files = new ArrayList<>();
    private final List<Finding> problems = new ArrayList<>();
    /** Display paths of files read only as context (configuration `include`). */
    private final Set<String> context = new java.util.TreeSet<>();
    private final Set<Path> seen = new java.util.HashSet<>();
    /** The name each file in {@link #seen} was first met under (the name it is linted and shown under). */
    private final java.util.Map<Path, String> firstName = new java.util.HashMap<>();
    private final dev.gpulint.config.Config config;
    private final Path base;
    private boolean contextMode;

    /** @param base the folder display paths are relative to (the working folder, or a Maven project's basedir) */
    public Discovery(dev.gpulint.config.Config config, Path base) {
        this.config = config;
        this.base = base.toAbsolutePath().normalize();
    }

    public Discovery(dev.gpulint.config.Config config) { this(config, Path.of("")); }

    public List<SourceFile> files() { return files; }

    /** Files larger than this are reported, not read (8 MiB by default). */
    public static final long DEFAULT_MAX_FILE_SIZE = 8L << 20;
    private long maxFileSize = DEFAULT_MAX_FILE_SIZE;

    public Discovery maxFileSize(long bytes) {
        if (RegularFiles.maxFileSizeProblem(bytes) != null) throw new IllegalArgumentException(RegularFiles.maxFileSizeProblem(bytes));
        this.maxFileSize = bytes;
        return this;
    }

    public List<Finding> problems() { return problems; }

    public Set<String> context() { return context; }

    private final List<String> excluded = new ArrayList<>();

    /** Files named on the command line (or as standard input's name) that the configuration's exclude left out, as given. */
    public List<String> excluded() { return excluded; }

    /** Adds the configuration's `include` entries: their files are linted as context. */
    public void addIncludes() {
        for (String inc : config.include()) {
            Path p = config.base().resolve(inc);
            String outside = Files.exists(p) ? IncludeScope.problem(p, config.base(), includeOutside) : null;
            if (outside != null) {
                problems.add(Finding.of("SYN001", config.valueSpan("include", inc), "config/include/" + inc,
                        "include '" + inc + "' in " + config.file() + " " + outside));
            } else if (Files.exists(p)) {
                addContext(p);
            } else {
                problems.add(Finding.of("SYN001", config.valueSpan("include", inc), "config/include/" + inc,
                        "no such file or folder: '" + inc + "' (include in " + config.file() + ", from " + display(config.base()) + ")"));
            }
        }
    }

    private boolean includeOutside;

    /** Lets the configuration's include read outside the project ({@code --include-outside-project}; {@link IncludeScope}). */
    public Discovery includeOutside(boolean allowed) { this.includeOutside = allowed; return this; }

    private void addContext(Path p) {
        contextMode = true;
        try {
            add(p, display(p));
        } finally {
            contextMode = false;
        }
    }

    /**
     * A file or folder as given on a command line, relative to the base folder; folders recurse into
     * the files {@link Readers#isCandidate} names. Files are displayed as given ("../x/job.yaml").
     */
    public void add(String arg) {
        add(dev.gpulint.core.PathNames.given(arg, base), arg);
    }

    /**
     * Text that stands for the file at {@code name} (standard input with --stdin-filename): read as
     * a file is, bounded by the maximum file size and decoded the same way, and displayed as
     * {@code name}; the file of that name on disk is not read (not even as context).
     */
    public void addText(String name, java.io.InputStream in) {
        Path at = name.equals(STDIN) ? null : resolve(Path.of(name));
        if (at != null && config.excluded(at)) {
            excluded.add(name);
            return;
        }
        if (at != null) seen.add(key(at));
        // a fixed text of standard input stands for it as for a file (it is read once, and never written)
        String overlaid = overlay.text(Overlay.key(base, at != null ? at : Path.of(name)));
        try {
            byte[] bytes = overlaid != null ? overlaid.getBytes(java.nio.charset.StandardCharsets.UTF_8) : RegularFiles.read(in, maxFileSize);
            FileText.decode(at != null ? at : Path.of(name), display(Path.of(name)), bytes, problems).ifPresent(files::add);
        } catch (RegularFiles.TooLarge e) {
            problems.add(Finding.of("SYN001", Span.at(display(Path.of(name)), 1, 1), "io", "standard input is more than the "
                    + FileText.human(maxFileSize) + " gpulint reads per file (manifests are kilobytes); raise the limit with --max-file-size"));
        } catch (IOException e) {
            problems.add(Finding.of("SYN001", Span.at(display(Path.of(name)), 1, 1), "io", "cannot read standard input: " + reason(e)));
        }
    }

    /** The display name of standard input without --stdin-filename. */
    public static final String STDIN = "<stdin>";

    /** The {@link #key}s of every file read so far (linted or context). */
    Set<Path> seen() { return seen; }

    /** What makes two paths one file ({@link dev.gpulint.core.PathNames#sameFileKey}). */
    static Path key(Path p) { return dev.gpulint.core.PathNames.sameFileKey(p); }

    /** A path given relative to the base folder, as an absolute path (not normalised: walks keep its prefix). */
    private Path resolve(Path given) {
        return given.isAbsolute() ? given : base.resolve(given);
    }

    /** A file found by the caller (e.g. the Maven plugin's includes). */
    public void addFile(Path p) {
        if (!config.excluded(p)) read(p);
    }

    private void add(Path given, String arg) {
        Path p = resolve(given);
        // excluded means excluded, named or walked: pre-commit names every committed file (ruff's force-exclude)
        if (!contextMode && !Files.isDirectory(p) && config.excluded(p)) {
            excluded.add(arg);
            return;
        }
        if (!Files.exists(p) && !overlaid(p)) {
            problems.add(Finding.of("SYN001", Span.at(display(given), 1, 1), "io", "no such file or folder: '" + arg + "'"));
            return;
        }
        if (Files.isDirectory(p)) {
            for (Path f : walk(p, given, arg, problems)) read(f, display(given.resolve(p.relativize(f))));
        } else {
            read(p, display(given));
        }
    }

    /**
     * The files a walk of a folder finds, sorted and without the configuration's excludes; problems
     * (unreadable folders, link loops) go to {@code sink}.
     */
    List<Path> walk(Path dir, Path given, String arg, List<Finding> sink) {
        return walk(dir, given, arg, sink, Integer.MAX_VALUE);
    }

    /** The same, or null when the folder holds more than {@code limit} candidate files (the walk stops there). */
    List<Path> walk(Path dir, Path given, String arg, List<Finding> sink, int limit) {
        Set<Path> found = new LinkedHashSet<>();
        Walk walk;
        try {
            walk = new Walk(dir, given, found, sink, limit);
            Files.walkFileTree(dir, EnumSet.of(FileVisitOption.FOLLOW_LINKS), MAX_DEPTH, walk);
        } catch (IOException e) {
            sink.add(Finding.of("SYN001", Span.at(display(given), 1, 1), "io", "cannot read '" + arg + "': " + reason(e)));
            return List.of();
        }
        if (found.size() > limit) return null;
        return found.stream().sorted().filter(f -> !config.excluded(f)).toList();
    }

    /** How deep a folder walk goes. */
    static final int MAX_DEPTH = 64;

    private void read(Path p) {
        read(p, display(p));
    }

    private void read(Path p, String name) {
        Path key = key(p);
        if (!seen.add(key)) {
            // given twice, given and included, or a link and its target: linted once, under the first name met,
            // and reported unless only included
            if (!contextMode) context.remove(firstName.getOrDefault(key, name));
            return;
        }
        firstName.put(key, name);
        if (contextMode) context.add(name);
        load(p, name, problems).ifPresent(files::add);
    }

    /** A file's text, or empty with a finding in {@code sink} ({@link FileText#load}); an overlaid file's text is its buffer's. */
    java.util.Optional<SourceFile> load(Path p, String name, List<Finding> sink) {
        String text = overlay.text(Overlay.key(base, p));
        if (text != null) return FileText.decode(p, name, text.getBytes(java.nio.charset.StandardCharsets.UTF_8), sink);
        return FileText.load(p, name, maxFileSize, sink);
    }

    private Overlay overlay = Overlay.NONE;
    boolean overlaid(Path p) { return overlay.has(Overlay.key(base, p)); }

    /**
     * Texts standing for files (an editor's unsaved buffers, the fix loop's fixed texts), wherever those are met;
     * linted even if not on the disk.
     */
    public Discovery overlay(Overlay texts) { this.overlay = texts; return this; }

    /**
     * The walk of one folder: hidden folders, target/ and node_modules/ skipped; symbolic links to
     * folders followed only while they stay inside the folder given (a link to / or /proc would walk
     * the whole machine); a folder that cannot be read is a finding for itself, the rest is walked.
     */
    private final class Walk extends SimpleFileVisitor<Path> {
        private final Path root;
        private final Path given;
        private final Path realRoot;
        private final Set<Path> found;
        private final List<Finding> sink;
        private final int limit;

        Walk(Path root, Path given, Set<Path> found, List<Finding> sink, int limit) throws IOException {
            this.root = root;
            this.given = given;
            this.realRoot = root.toRealPath();
            this.found = found;
            this.sink = sink;
            this.limit = limit;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            String n = dir.getFileName() == null ? "" : dir.getFileName().toString();
            if (!dir.equals(root) && (n.startsWith(".") || SKIP.contains(n))) return FileVisitResult.SKIP_SUBTREE;
            if (!dir.equals(root) && Files.isSymbolicLink(dir) && !PathNames.realUnder(dir, realRoot)) return FileVisitResult.SKIP_SUBTREE;
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            String n = file.getFileName().toString();
            // a link to a file outside the folder given is not followed, as one to a folder is not (--fix never writes through it)
            if (attrs.isRegularFile() && Files.isSymbolicLink(file) && !PathNames.realUnder(file, realRoot)) return FileVisitResult.CONTINUE;
            if (attrs.isRegularFile() && (Readers.isCandidate(n) || evidence(file, n))) found.add(file);
            return found.size() > limit ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
        }

        /**
         * A .txt or .log file that configuration {@code evidence:} names (taken as it is: the reader decides what it
         * holds, from the whole file), or whose head shows a tool output gpulint reads; one that cannot be read is not.
         */
        private boolean evidence(Path file, String name) {
            if (!dev.gpulint.read.evidence.EvidenceReader.sniffedByContent(name)) return false;
            if (config.evidenceLink(file).isPresent()) return true;
            try (java.io.InputStream in = Files.newInputStream(file)) {
                byte[] head = in.readNBytes(dev.gpulint.read.evidence.EvidenceReader.SNIFF_CHARS);
                return dev.gpulint.read.Readers.isEvidence(name, new String(head, java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException exc) {
            cannotRead(file, exc);
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException exc) {
            // a folder whose listing broke off costs only itself
            if (exc != null) cannotRead(dir, exc);
            return FileVisitResult.CONTINUE;
        }

        private void cannotRead(Path file, IOException exc) {
            String shown = file.startsWith(root) ? display(given.resolve(root.relativize(file))) : display(file);
            sink.add(Finding.of("SYN001", Span.at(shown, 1, 1), "io", "cannot read '" + shown + "': " + reason(exc)));
        }
    }

    /** Paths as given, with '/' separators and without a leading "./"; absolute paths under the base folder become relative. */
    public String display(Path p) {
        Path n = p.normalize();
        if (n.isAbsolute() && n.startsWith(base) && !n.equals(base)) n = base.relativize(n);
        String s = dev.gpulint.core.PathNames.slashes(dev.gpulint.core.PathNames.shown(n));
        return s.isEmpty() ? "." : s;
    }

    static String reason(IOException e) {
        String cls = e.getClass().getSimpleName();
        return switch (cls) {
            case "AccessDeniedException" -> "permission denied";
            case "NoSuchFileException" -> "no such file or folder";
            case "FileSystemLoopException" -> "symbolic-link loop";
            default -> e.getMessage() == null ? cls : e.getMessage();
        };
    }
}
