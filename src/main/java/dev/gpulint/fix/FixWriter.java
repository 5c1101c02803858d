package dev.gpulint.fix;

import dev.gpulint.core.TempFiles;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes fixed texts back ({@code check --fix}), only to the files the run linted and read the text of: never
 * standard input, a context file or anything else, and never through a symbolic link whose file lies outside the
 * folders linted (the folder walk's rule for links). A file the user may not write (read-only, 0444) is refused, as
 * ruff and eslint refuse it; as root, whom the system lets write anything, a file whose owner may not write it counts
 * as read-only too.
 *
 * <p>A file keeps its identity: it is written whole and atomically (a temporary file beside it, given the file's
 * owner, group, permissions and user extended attributes, then renamed over it: a reader sees the old text or the new
 * one, never half), or, when the rename would change what the file is (its owner or group cannot be given to the new
 * file, an extended attribute cannot be copied, or it has other hard links that a rename would split off), written in
 * place as ruff and eslint write every file. POSIX ACLs and SELinux labels are not visible to Java: a file with an ACL
 * of its own loses it to the rename (see README, "Fixes"). Its byte-order mark is kept. A file whose text changed on
 * disk since it was read is left alone and said so. The temporary file is removed on every way out
 * ({@link TempFiles}).
 */
public final class FixWriter {
    private FixWriter() {}

    /**
     * Writes {@code after}'s texts; returns the display paths not written, each with one sentence saying why.
     */
    public static Map<String, String> write(FixLoop.Result r) {
        Map<String, String> problems = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : r.after().entrySet()) {
            String shown = e.getKey();
            SourceFile src = r.sources().get(shown);
            if (src == null || shown.equals(r.stdin())) continue;       // never standard input
            try {
                write(src.path(), r.before().get(shown), e.getValue(), r.roots());
            } catch (Changed c) {
                problems.put(shown, "did not fix " + shown + ": it changed on disk while gpulint read it; run gpulint --fix again");
            } catch (Refused x) {
                problems.put(shown, "did not fix " + shown + ": " + x.getMessage());
            } catch (IOException x) {
                problems.put(shown, "cannot write the fixes to " + shown + ": " + reason(x));
            }
        }
        return problems;
    }

    private static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.file.NoSuchFileException) return "no such file";
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static final class Changed extends IOException {
        Changed() { super("changed"); }
    }

    /** A file gpulint will not write, and why (the sentence's end). */
    static final class Refused extends IOException {
        Refused(String why) { super(why); }
    }

    /** Whether the file starts with a UTF-8 byte-order mark (a diff shows it in its first line, as the file has it). */
    public static boolean startsWithBom(Path p) {
        try (var in = Files.newInputStream(p)) {
            byte[] b = in.readNBytes(3);
            return b.length == 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Runs between writing the temporary file and moving it into place (tests stop the process there). */
    static volatile java.util.function.Consumer<Path> beforeMove = tmp -> {};

    static void write(Path at, String before, String after, List<Path> roots) throws IOException {
        Path real = at.toRealPath();        // through a link: the file it names is the one linted
        if (Files.isSymbolicLink(at) && roots.stream().noneMatch(real::startsWith)) {
            throw new Refused("it is a symbolic link to " + real + ", outside the folders linted; gpulint writes through a link "
                    + "only to a file inside them (fix the file itself)");
        }
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) throw new IOException("not a regular file");
        String readOnly = readOnly(real);
        if (readOnly != null) throw new Refused(readOnly);
        byte[] bytes = Files.readAllBytes(real);
        boolean bom = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF;
        String now = new String(bytes, bom ? 3 : 0, bytes.length - (bom ? 3 : 0), StandardCharsets.UTF_8);
        if (!now.equals(before)) throw new Changed();
        byte[] text = after.getBytes(StandardCharsets.UTF_8);
        byte[] out = text;
        if (bom) {
            out = new byte[text.length + 3];
            out[0] = (byte) 0xEF; out[1] = (byte) 0xBB; out[2] = (byte) 0xBF;
            System.arraycopy(text, 0, out, 3, text.length);
        }
        Map<String, Object> unix = unix(real);
        if (unix != null && ((Number) unix.get("nlink")).intValue() > 1) {
            inPlace(real, out);             // a rename would split the hard links: every name keeps the one file
            return;
        }
        Path tmp;
        try {
            tmp = TempFiles.create(real.getParent(), real.getFileName().toString(), ".gpulint-fix");
        } catch (java.nio.file.AccessDeniedException e) {
            inPlace(real, out);             // a writable file in a folder you may not create files in
            return;
        }
        try {
            Files.write(tmp, out);
            if (!sameIdentity(real, tmp, unix)) {
                inPlace(real, out);         // the new file could not be made the old one's: keep the old one
                return;
            }
            beforeMove.accept(tmp);
            try {
                Files.move(tmp, real, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            TempFiles.done(tmp);
        }
    }

    /** The file's unix attributes (uid, gid, mode, nlink), or null on a file system without them. */
    private static Map<String, Object> unix(Path p) {
        try {
            return Files.readAttributes(p, "unix:uid,gid,mode,nlink", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            return null;
        }
    }

    /**
     * Gives {@code tmp} the owner, group, permissions and user extended attributes of {@code real}; false when one
     * of them cannot be given (a user who is not root cannot give a file to another owner).
     */
    private static boolean sameIdentity(Path real, Path tmp, Map<String, Object> unix) {
        try {
            if (unix != null) {
                Map<String, Object> mine = unix(tmp);
                if (mine != null && !mine.get("uid").equals(unix.get("uid"))) Files.setAttribute(tmp, "unix:uid", unix.get("uid"));
                if (mine != null && !mine.get("gid").equals(unix.get("gid"))) Files.setAttribute(tmp, "unix:gid", unix.get("gid"));
            }
            // after the owner: chown clears the set-user-ID and set-group-ID bits
            if (tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(real));
            }
            UserDefinedFileAttributeView from = Files.getFileAttributeView(real, UserDefinedFileAttributeView.class);
            List<String> names = List.of();
            try {
                if (from != null) names = from.list();
            } catch (IOException | UnsupportedOperationException e) {
                // a file system without extended attributes: the file has none to keep
            }
            if (!names.isEmpty()) {
                UserDefinedFileAttributeView to = Files.getFileAttributeView(tmp, UserDefinedFileAttributeView.class);
                for (String name : names) {
                    ByteBuffer value = ByteBuffer.allocate(from.size(name));
                    from.read(name, value);
                    value.flip();
                    to.write(name, value);
                }
            }
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /**
     * Writes {@code out} into the file itself (its inode, owner, links, ACLs and attributes stay): the bytes first,
     * then the length cut, then forced to the disk.
     */
    private static void inPlace(Path real, byte[] out) throws IOException {
        try (FileChannel ch = FileChannel.open(real, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(out);
            while (b.hasRemaining()) ch.write(b, b.position());
            ch.truncate(out.length);
            ch.force(true);
        }
    }

    /**
     * Why the user may not write {@code real}, or null: the system refuses it (access(2)), or, for root, whom the system
     * never refuses, its owner may not write it: {@code chmod a-w} (0444) is how a file is marked read-only, and
     * {@code sudo gpulint --fix .} must respect it as the owner's own run would.
     */
    static String readOnly(Path real) {
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(real);
        } catch (IOException | UnsupportedOperationException e) {
            perms = null;
        }
        String mode = perms == null ? "" : " (" + PosixFilePermissions.toString(perms) + ")";
        if (!Files.isWritable(real)) return "it is read-only for you" + mode + "; make it writable (chmod u+w) to fix it";
        if (perms != null && root() && !perms.contains(PosixFilePermission.OWNER_WRITE)) {
            return "it is read-only" + mode + ": its owner may not write it, and gpulint running as root does not either; "
                    + "make it writable (chmod u+w) to fix it";
        }
        return null;
    }

    private static volatile Boolean root;

    /** Whether this process runs as root (its /proc/self belongs to uid 0; else by its user name). */
    static boolean root() {
        Boolean r = root;
        if (r == null) {
            try {
                r = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
            } catch (IOException | RuntimeException e) {
                r = "root".equals(System.getProperty("user.name"));
            }
            root = r;
        }
        return r;
    }
}
