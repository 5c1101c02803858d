package dev.gpulint.daemon;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One command line to run warm.
 *
 * @param args the arguments after {@code gpulint}
 * @param cwd the client's working directory, absolute and real (what a cold JVM's getcwd() would be)
 * @param env the client's environment, as far as the client passed it: the engine reads nothing else
 * @param stdin the client's standard input, asked for only when the run reads it (it may block on a terminal)
 */
public record Invocation(List<String> args, Path cwd, Map<String, String> env, Supplier<InputStream> stdin) {
    public Invocation {
        args = List.copyOf(args);
        env = Map.copyOf(env);
    }
}
