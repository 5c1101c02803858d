package dev.gpulint.lsp;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.jsonrpc.Endpoint;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.json.StreamMessageConsumer;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * The server's life as the LSP specification orders it, kept in front of every method (those gpulint implements and
 * those LSP4J answers by default): before {@code initialize}, a request is answered with the error
 * ServerNotInitialized (-32002) and a notification is dropped; after {@code shutdown}, a request is answered with
 * InvalidRequest (-32600) and a notification other than {@code exit} is dropped; a second {@code initialize} is an
 * InvalidRequest too.
 */
final class Lifecycle implements Endpoint {
    private static final int NEW = 0, RUNNING = 1, SHUT_DOWN = 2;

    private final Endpoint server;
    private int state = NEW;

    Lifecycle(Endpoint server) {
        this.server = server;
    }

    /** The launcher of {@code server} on {@code in} and {@code out}, with this gate between the connection and the server. */
    static Launcher<LanguageClient> launcher(GpulintServer server, InputStream in, OutputStream out) {
        return new LSPLauncher.Builder<LanguageClient>() {
            @Override
            protected RemoteEndpoint createRemoteEndpoint(MessageJsonHandler json) {
                // as Launcher.Builder builds it, with the local endpoint behind the gate
                MessageConsumer outgoing = wrapMessageConsumer(new StreamMessageConsumer(output, json));
                Endpoint local = new Lifecycle(ServiceEndpoints.toEndpoint(localServices));
                RemoteEndpoint remote = exceptionHandler == null ? new RemoteEndpoint(outgoing, local)
                        : new RemoteEndpoint(outgoing, local, exceptionHandler);
                json.setMethodProvider(remote);
                remote.setJsonHandler(json);
                return remote;
            }
        }.setLocalService(server).setRemoteInterface(LanguageClient.class).setInput(in).setOutput(out)
                .setExceptionHandler(Lifecycle::answer).create();
    }

    /**
     * The error a failed request is answered with: its own when it is one of the protocol's (the gate's), else
     * InternalError with what failed in one line; the Java stack trace goes to standard error (the editor's log of the
     * server), not into the answer, where LSP4J would put it.
     */
    static ResponseError answer(Throwable t) {
        Throwable c = t;
        while ((c instanceof java.util.concurrent.CompletionException || c instanceof java.util.concurrent.ExecutionException)
                && c.getCause() != null) c = c.getCause();
        if (c instanceof ResponseErrorException r) return r.getResponseError();
        System.err.println("gpulint lsp: a request failed (please report it with the file):");
        c.printStackTrace(System.err);
        return new ResponseError(ResponseErrorCode.InternalError, "gpulint could not answer: " + c
                + " (a bug in gpulint; its log on standard error has the details)", null);
    }

    @Override
    public synchronized CompletableFuture<?> request(String method, Object params) {
        if (state == NEW && !method.equals("initialize")) {
            return refuse(ResponseErrorCode.ServerNotInitialized, "the server is not initialized: '" + method + "' came before 'initialize'");
        }
        if (state == SHUT_DOWN) return refuse(ResponseErrorCode.InvalidRequest, "the server has shut down: '" + method + "' came after 'shutdown'");
        if (method.equals("initialize")) {
            if (state == RUNNING) return refuse(ResponseErrorCode.InvalidRequest, "'initialize' was sent already");
            state = RUNNING;
        } else if (method.equals("shutdown")) {
            state = SHUT_DOWN;
        }
        return server.request(method, params);
    }

    @Override
    public synchronized void notify(String method, Object params) {
        if (method.equals("exit") || state == RUNNING) server.notify(method, params);
    }

    private static CompletableFuture<?> refuse(ResponseErrorCode code, String message) {
        return CompletableFuture.failedFuture(new ResponseErrorException(new ResponseError(code, message, null)));
    }
}
