package dev.gpulint.lint;

import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import dev.gpulint.core.RegularFiles;
import dev.gpulint.core.Span;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
 * node_modules/ skipped; links to folders outside the folder given not followed); a path that cannot
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

    public Discovery maxFileSize(long bytes) { this.maxFileSize = bytes; return this; }

    static String human(long bytes) {
        if (bytes >= 1L << 20) return dev.gpulint.spec.Quantities.format(bytes / (double) (1L << 20)) + " MiB";
        if (bytes >= 1L << 10) return dev.gpulint.spec.Quantities.format(bytes / (double) (1L << 10)) + " KiB";
        return bytes + " bytes";
    }

    public List<Finding> problems() { return problems; }

    public Set<String> context() { return context; }

    /** Adds the configuration's `include` entries: their files are linted as context. */
    public void addIncludes() {
        for (String inc : config.include()) addContext(config.base().resolve(inc));
    }

    private void addContext(Path p) {
        contextMode = true;
        try {
            add(p, display(p));
        } finally {
            contextMode = false;
        }
    }

    /** A file or folder as given; folders recurse into the files {@link Linter#isCandidate} names. */
    public void add(String arg) {
        add(Path.of(arg), arg);
    }

    /** A file found by the caller (e.g. the Maven plugin's includes). */
    public void addFile(Path p) {
        if (!config.excluded(p)) read(p);
    }

    private void add(Path p, String arg) {
        if (!Files.exists(p)) {
            problems.add(Finding.of("SYN001", Span.at(display(p), 1, 1), "io", "cannot read '" + arg + "': no such file or folder"));
            return;
        }
        if (Files.isDirectory(p)) {
            Set<Path> found = new LinkedHashSet<>();
            try {
                Files.walkFileTree(p, EnumSet.of(FileVisitOption.FOLLOW_LINKS), 64, new Walk(p, found));
            } catch (IOException e) {
                problems.add(Finding.of("SYN001", Span.at(display(p), 1, 1), "io", "cannot read '" + arg + "': " + reason(e)));
            }
            found.stream().sorted().filter(f -> !config.excluded(f)).forEach(this::read);
        } else {
            read(p);
        }
    }

    private void read(Path p) {
        String name = display(p);
        Path key = p.toAbsolutePath().normalize();
        if (!seen.add(key)) {
            // given twice, or given and included: linted once, and reported unless only included
            if (!contextMode) context.remove(name);
            return;
        }
        if (contextMode) context.add(name);
        try {
            long size = Files.size(p);
            if (size > maxFileSize) throw new RegularFiles.TooLarge(maxFileSize);
            // the size a file system reports can lie (/proc, a growing file): the read itself is bounded
            byte[] bytes = RegularFiles.read(p, maxFileSize);
            for (byte b : bytes) {
                if (b == 0) {
                    problems.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "'" + name + "' is a binary file (it contains NUL bytes), not a manifest"));
                    return;
                }
            }
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
            if (text.startsWith("\uFEFF")) text = text.substring(1);
            files.add(new SourceFile(p, name, text));
        } catch (RegularFiles.TooLarge e) {
            long size = sizeOf(p);
            problems.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "'" + name + "' is "
                    + (size > maxFileSize ? human(size) + ", " : "") + "more than the " + human(maxFileSize)
                    + " gpulint reads per file (manifests are kilobytes); exclude it, or raise the limit with --max-file-size"));
        } catch (RegularFiles.NotRegular e) {
            problems.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "cannot read '" + name + "': " + e.getMessage()
                    + "; gpulint reads regular files only"));
        } catch (CharacterCodingException e) {
            problems.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "'" + name + "' is not UTF-8 text; gpulint reads UTF-8 manifests only"));
        } catch (IOException e) {
            problems.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "cannot read '" + name + "': " + reason(e)));
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * The walk of one folder: hidden folders, target/ and node_modules/ skipped; symbolic links to
     * folders followed only while they stay inside the folder given (a link to / or /proc would walk
     * the whole machine); a folder that cannot be read is a finding for itself, the rest is walked.
     */
    private final class Walk extends SimpleFileVisitor<Path> {
        private final Path root;
        private final Path realRoot;
        private final Set<Path> found;

        Walk(Path root, Set<Path> found) throws IOException {
            this.root = root;
            this.realRoot = root.toRealPath();
            this.found = found;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            String n = dir.getFileName() == null ? "" : dir.getFileName().toString();
            if (!dir.equals(root) && (n.startsWith(".") || SKIP.contains(n))) return FileVisitResult.SKIP_SUBTREE;
            if (!dir.equals(root) && Files.isSymbolicLink(dir)) {
                try {
                    if (!dir.toRealPath().startsWith(realRoot)) return FileVisitResult.SKIP_SUBTREE;
                } catch (IOException e) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            String n = file.getFileName().toString();
            if (attrs.isRegularFile() && (Linter.isCandidate(n) || evidence(file, n))) found.add(file);
            return FileVisitResult.CONTINUE;
        }

        /** A .txt or .log file whose head shows a tool output gpulint reads; one that cannot be read is not. */
        private boolean evidence(Path file, String name) {
            if (!dev.gpulint.read.evidence.EvidenceReader.sniffedByContent(name)) return false;
            try (java.io.InputStream in = Files.newInputStream(file)) {
                byte[] head = in.readNBytes(dev.gpulint.read.evidence.EvidenceReader.SNIFF_CHARS);
                return dev.gpulint.read.Readers.isEvidence(name, new String(head, StandardCharsets.UTF_8));
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
            problems.add(Finding.of("SYN001", Span.at(display(file), 1, 1), "io",
                    "cannot read '" + display(file) + "': " + reason(exc)));
        }
    }

    /** Paths as given, with '/' separators and without a leading "./"; absolute paths under the base folder become relative. */
    public String display(Path p) {
        Path n = p.normalize();
        if (n.isAbsolute() && n.startsWith(base) && !n.equals(base)) n = base.relativize(n);
        String s = n.toString().replace('\\', '/');
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
