package dev.gpulint.cli;

import dev.gpulint.core.DidYouMean;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Bad usage in three lines, not a page of usage: what was wrong, the nearest option, value or command
 * when there is one ("did you mean --no-color?"), and where the help is ("try 'gpulint --help'"), as
 * git and cargo answer a typo. Exit 2.
 */
final class BadUsage implements CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("gpulint: " + ex.getMessage());
        String near = nearest(ex);
        if (near != null) err.println("gpulint: did you mean " + near + "?");
        err.println("try '" + helpOf(cmd) + " --help'");
        err.flush();
        return Main.BAD_INPUT;
    }

    /** The command whose help is meant: the top-level one for check, which is the default command. */
    private static String helpOf(CommandLine cmd) {
        String path = cmd.getCommandSpec().qualifiedName();
        return path.equals("gpulint check") ? "gpulint" : path;
    }

    /** The option, value or command nearest to what was typed, or null. */
    static String nearest(ParameterException ex) {
        if (ex instanceof UnmatchedArgumentException u) {
            List<String> s = u.getSuggestions();
            if (!s.isEmpty()) return String.join(" or ", s.subList(0, Math.min(3, s.size())));
            List<String> typed = u.getUnmatched();
            if (typed.isEmpty()) return null;
            return DidYouMean.closest(typed.get(0), optionNames(ex.getCommandLine()));
        }
        ArgSpec arg = ex.getArgSpec();
        String value = ex.getValue();
        if (value != null && ex.getMessage().startsWith("Unknown subcommand")) {
            // `gpulint help chek`: picocli's help command names the command it was asked about
            return DidYouMean.closest(value, ex.getCommandLine().getSubcommands().keySet());
        }
        if (arg == null || value == null) return null;
        List<String> candidates = new ArrayList<>();
        if (arg.completionCandidates() != null) arg.completionCandidates().forEach(candidates::add);
        Object[] constants = arg.type().getEnumConstants();
        if (candidates.isEmpty() && constants != null) for (Object c : constants) candidates.add(c.toString());
        String v = value.contains("=") && value.startsWith("-") ? value.substring(value.indexOf('=') + 1) : value;
        return DidYouMean.closest(v, candidates);
    }

    private static Collection<String> optionNames(CommandLine cmd) {
        List<String> names = new ArrayList<>();
        cmd.getCommandSpec().options().forEach(o -> names.addAll(List.of(o.names())));
        return names;
    }

    /**
     * A first word that is neither a command nor a file or folder but is close to a command
     * ({@code gpulint chek .}, {@code gpulint explian PAR002}): the message for it, or null when the
     * word is a path (or could be one) and check should take it.
     */
    static String mistypedCommand(String first, Set<String> commands, Path cwd) {
        if (first.startsWith("-") || first.contains("/") || first.contains(".")) return null;
        try {
            if (Files.exists(cwd.resolve(first))) return null;
        } catch (InvalidPathException e) {
            return null;
        }
        String near = DidYouMean.closest(first, commands);
        if (near == null) return null;
        return "gpulint: '" + first + "' is neither a command nor a file or folder\ngpulint: did you mean 'gpulint " + near
                + "'?\ntry 'gpulint --help'";
    }
}
