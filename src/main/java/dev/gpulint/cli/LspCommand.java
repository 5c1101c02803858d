package dev.gpulint.cli;

import dev.gpulint.lsp.GpulintServer;
import dev.gpulint.report.ReportOptions;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.services.LanguageClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gpulint lsp}: the language server on standard input and output (docs/editors.md). Standard output carries
 * JSON-RPC and nothing else: for the server's life {@code System.out} is standard error, so a stray print from any
 * library cannot corrupt the stream; logs go to standard error.
 */
@Command(name = "lsp", mixinStandardHelpOptions = true,
        description = "Run the language server (LSP) on standard input and output, for editors (docs/editors.md).")
final class LspCommand implements Callable<Integer> {

    @Option(names = "--help-uri-base", paramLabel = "URL",
            description = "each diagnostic's code links to URL + ID.md (or URL with {id} replaced): where the rules' help pages are published")
    String helpUriBase;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        String problem = ReportOptions.DEFAULT.withHelpUriBase(helpUriBase).helpUriBaseProblem();
        if (problem != null) {
            spec.commandLine().getErr().println("gpulint: --help-uri-base " + problem);
            return Main.BAD_INPUT;
        }
        // the rule base and catalogs load on other threads while LSP4J sets up and the client initializes
        dev.gpulint.lint.Linter.warmUp();
        PrintStream stdout = System.out;
        System.setOut(System.err);
        try {
            GpulintServer server = new GpulintServer(ReportOptions.DEFAULT.withHelpUriBase(helpUriBase));
            Launcher<LanguageClient> launcher = GpulintServer.launcher(server, Main.stdin.get(), new FileOutputStream(FileDescriptor.out));
            server.connect(launcher.getRemoteProxy());
            Future<Void> listening = launcher.startListening();
            return server.awaitExit(listening);
        } finally {
            System.setOut(stdout);
        }
    }
}
