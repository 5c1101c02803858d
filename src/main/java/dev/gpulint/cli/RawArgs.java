package dev.gpulint.cli;

import dev.gpulint.core.PathNames;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command line as the user typed it. Java decodes arguments in the locale's character set and puts
 * U+FFFD where bytes do not decode (a file name that is not UTF-8; any non-ASCII name under the C
 * locale), so `gpulint $'j\xffob.yaml'` would name no file. On Linux the bytes are still in
 * /proc/self/cmdline: {@link PathNames#args} puts them back, as the names {@link PathNames#shown} writes.
 */
final class RawArgs {
    private RawArgs() {}

    static String[] recover(String[] args) {
        Path cmdline = Path.of("/proc/self/cmdline");
        try {
            if (!Files.isReadable(cmdline)) return args;
            return PathNames.args(args, Files.readAllBytes(cmdline), locale());
        } catch (IOException | RuntimeException e) {
            return args;
        }
    }

    private static Charset locale() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }
}
