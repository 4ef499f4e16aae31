package dev.ovnj.nb.command;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.TransactionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * ovn-nbctl's command language: {@code [OPTIONS] COMMAND [ARG...] [-- [OPTIONS] COMMAND [ARG...]]...}
 * parsed ({@link #parse}) and run as one transaction through {@link NorthboundCommands}
 * ({@link #run}), with ovn-nbctl's output, messages and exit codes. For controllers that carry
 * ovn-nbctl command lines and for {@code ovnj nbctl}.
 */
public final class NbctlCommandLine {
    private static final int MANY = Integer.MAX_VALUE;

    /** One command of the language: its argument counts and options ({@code --x=} takes a value). */
    private record Syntax(String name, int min, int max, List<String> options) {
    }

    private static final Map<String, Syntax> SYNTAX = new LinkedHashMap<>();

    static {
        add("ls-add", 0, 1, "--may-exist,--add-duplicate");
        add("ls-del", 1, 1, "--if-exists");
        add("ls-list", 0, 0, "");
        add("lsp-add", 2, 4, "--may-exist");
        add("lsp-del", 1, 1, "--if-exists");
        add("lsp-list", 1, 1, "");
        add("lsp-set-addresses", 1, MANY, "");
        add("lsp-set-port-security", 0, MANY, "");
        add("lsp-set-type", 2, 2, "");
        add("lsp-set-options", 1, MANY, "");
        add("lsp-set-enabled", 2, 2, "");
        for (String getter : List.of("lsp-get-parent", "lsp-get-tag", "lsp-get-addresses", "lsp-get-port-security",
                "lsp-get-up", "lsp-get-enabled", "lsp-get-type", "lsp-get-options", "lrp-get-gateway-chassis")) {
            add(getter, 1, 1, "");
        }
        add("lr-add", 0, 1, "--may-exist,--add-duplicate");
        add("lr-del", 1, 1, "--if-exists");
        add("lr-list", 0, 0, "");
        add("lrp-add", 4, MANY, "--may-exist");
        add("lrp-del", 1, 1, "--if-exists");
        add("lrp-list", 1, 1, "");
        add("lrp-set-gateway-chassis", 2, 3, "");
        add("lrp-del-gateway-chassis", 2, 2, "");
        add("lr-nat-add", 4, 7, "--may-exist,--stateless,--portrange,--add-route,--gateway-port=");
        add("lr-nat-del", 1, 4, "--if-exists");
        add("lr-nat-list", 1, 1, "");
        add("lr-route-add", 3, 4, "--may-exist,--ecmp,--ecmp-symmetric-reply,--policy=,--route-table=,--bfd?");
        add("lr-route-del", 1, 4, "--if-exists,--policy=,--route-table=");
        add("lr-route-list", 1, 1, "--route-table=");
        add("lr-policy-add", 4, MANY, "--may-exist");
        add("lr-policy-del", 1, 3, "--if-exists");
        add("acl-add", 5, 6, "--log,--may-exist,--type=,--name=,--severity=,--meter=,--label=,--apply-after-lb");
        add("acl-del", 1, 4, "--type=");
        add("acl-list", 1, 1, "--type=");
        add("pg-add", 1, MANY, "");
        add("pg-set-ports", 2, MANY, "");
        add("pg-del", 1, 1, "");
        add("lb-add", 3, 5, "--may-exist,--add-duplicate,--reject,--event,--add-route,--template");
        add("lb-del", 1, 2, "--if-exists");
        add("lb-list", 0, 1, "");
        add("ls-lb-add", 2, 2, "--may-exist");
        add("ls-lb-del", 1, 2, "--if-exists");
        add("ls-lb-list", 1, 1, "");
        add("lr-lb-add", 2, 2, "--may-exist");
        add("lr-lb-del", 1, 2, "--if-exists");
        add("lr-lb-list", 1, 1, "");
        add("get", 2, MANY, "--if-exists,--id=");
        add("list", 1, MANY, "--if-exists,--columns=");
        add("find", 1, MANY, "--columns=");
        add("set", 3, MANY, "--if-exists");
        add("add", 4, MANY, "--if-exists");
        add("remove", 4, MANY, "--if-exists");
        add("clear", 3, MANY, "--if-exists");
        add("create", 2, MANY, "--id=");
        add("destroy", 1, MANY, "--if-exists,--all");
    }

    private static void add(String name, int min, int max, String options) {
        SYNTAX.put(name, new Syntax(name, min, max, options.isEmpty() ? List.of() : Arrays.asList(options.split(","))));
    }

    private NbctlCommandLine() {
    }

    /**
     * One parsed command: its name, options ({@code --may-exist} maps to "") and arguments.
     *
     * @param name the command name
     * @param options the options given before it
     * @param args its arguments
     */
    public record Command(String name, Map<String, String> options, List<String> args) {
        boolean has(String option) {
            return options.containsKey(option);
        }

        String option(String option) {
            return options.get(option);
        }

        String arg(int i) {
            return i < args.size() ? args.get(i) : null;
        }
    }

    /**
     * A parsed invocation: the global options and the commands.
     *
     * @param db {@code --db}, or null for ovn-nbctl's default
     * @param timeout {@code --timeout} (zero: wait forever)
     * @param output {@code --format}, {@code --bare}, {@code --no-headings}
     * @param columns the global {@code --columns}, empty for all
     * @param commands the commands, in order
     * @param tls {@code --private-key}, {@code --certificate} and {@code --ca-cert} (also {@code -p},
     *     {@code -c}, {@code -C}) by their long names, for {@code ssl:} remotes
     */
    public record Invocation(String db, Duration timeout, TableOutput output, List<String> columns, List<Command> commands,
            Map<String, String> tls) {
    }

    /**
     * The outcome of an invocation, as ovn-nbctl would print and exit.
     *
     * @param exitCode 0 on success, 1 when a command or the transaction failed
     * @param stdout the commands' output
     * @param stderr the error message ({@code ovn-nbctl: ...}), or ""
     */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    /**
     * Parses ovn-nbctl's argument syntax.
     *
     * @param argv the arguments after the program name
     * @return the invocation
     * @throws NbctlException with ovn-nbctl's message when the syntax is wrong
     */
    public static Invocation parse(List<String> argv) {
        String db = null;
        Duration timeout = Duration.ZERO;
        String format = "list";
        boolean bare = false;
        boolean headings = true;
        List<String> columns = List.of();
        Map<String, String> pending = new LinkedHashMap<>();
        Map<String, String> tls = new LinkedHashMap<>();
        int i = 0;
        // Global options, and the first command's own options, come before the first command.
        for (; i < argv.size(); i++) {
            String a = argv.get(i);
            if (!a.startsWith("-") || a.equals("--")) {
                break;
            }
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            String value = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
            switch (name) {
                case "--db", "--timeout", "-t", "--format", "-f", "--columns", "--data", "-d", "--wait", "--private-key",
                        "-p", "--certificate", "-c", "--ca-cert", "-C" -> {
                    if (value == null) {
                        if (i + 1 >= argv.size()) {
                            throw new NbctlException("option '" + name + "' requires an argument");
                        }
                        value = argv.get(++i);
                    }
                    switch (name) {
                        case "--db" -> db = value;
                        case "--timeout", "-t" -> {
                            try {
                                timeout = Duration.ofSeconds(Long.parseLong(value));
                            } catch (NumberFormatException e) {
                                throw new NbctlException("value " + value + " on -t or --timeout is invalid");
                            }
                        }
                        case "--format", "-f" -> {
                            if (!List.of("list", "table", "csv", "json", "html").contains(value)) {
                                throw new NbctlException("unknown output format \"" + value + "\"");
                            }
                            format = value;
                        }
                        case "--columns" -> columns = Arrays.asList(value.split(","));
                        case "--private-key", "-p" -> tls.put("--private-key", value);
                        case "--certificate", "-c" -> tls.put("--certificate", value);
                        case "--ca-cert", "-C" -> tls.put("--ca-cert", value);
                        default -> {
                            // --data and --wait do not change what the commands do here.
                        }
                    }
                }
                case "--bare" -> bare = true;
                case "--no-headings" -> headings = false;
                case "--oneline", "--no-leader-only", "--leader-only", "--no-wait", "--no-shuffle-remotes",
                        "--shuffle-remotes", "--no-syslog", "-v", "--verbose" -> {
                    // Accepted for compatibility; they do not change the result.
                }
                default -> {
                    boolean commandOption = SYNTAX.values().stream().flatMap(x -> x.options().stream())
                            .anyMatch(o -> o.replaceAll("[=?]$", "").equals(name));
                    if (!commandOption) {
                        throw new NbctlException("unrecognized option '" + name + "'");
                    }
                    pending.put(name, value == null ? "" : value);
                }
            }
        }
        List<Command> commands = new ArrayList<>();
        boolean first = true;
        while (i < argv.size()) {
            Map<String, String> options = new LinkedHashMap<>();
            if (first) {
                options.putAll(pending);
                first = false;
            }
            if (argv.get(i).equals("--")) {
                i++;
                continue;
            }
            while (i < argv.size() && argv.get(i).startsWith("--") && !argv.get(i).equals("--")) {
                String a = argv.get(i++);
                String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
                String value = a.contains("=") ? a.substring(a.indexOf('=') + 1) : "";
                if (options.containsKey(name)) {
                    throw new NbctlException("'" + name + "' option specified multiple times");
                }
                options.put(name, value);
            }
            if (i >= argv.size() || argv.get(i).equals("--")) {
                throw new NbctlException("missing command name (use --help for help)");
            }
            String name = argv.get(i++);
            Syntax syntax = SYNTAX.get(name);
            if (syntax == null) {
                throw new NbctlException("unknown command '" + name + "'; use --help for help");
            }
            List<String> args = new ArrayList<>();
            while (i < argv.size() && !argv.get(i).equals("--")) {
                args.add(argv.get(i++));
            }
            for (Map.Entry<String, String> o : options.entrySet()) {
                boolean known = false;
                for (String allowed : syntax.options()) {
                    String bareName = allowed.replaceAll("[=?]$", "");
                    if (bareName.equals(o.getKey())) {
                        known = true;
                        if (allowed.endsWith("=") && o.getValue().isEmpty()) {
                            throw new NbctlException("'" + name + "' command requires argument to '" + o.getKey() + "' option");
                        }
                    }
                }
                if (!known) {
                    throw new NbctlException("'" + name + "' command has no '" + o.getKey() + "' option");
                }
            }
            if (args.size() < syntax.min()) {
                throw new NbctlException("'" + name + "' command requires at least " + syntax.min() + " arguments");
            }
            if (args.size() > syntax.max()) {
                throw new NbctlException("'" + name + "' command takes at most " + syntax.max() + " arguments");
            }
            commands.add(new Command(name, Map.copyOf(options), List.copyOf(args)));
        }
        if (commands.isEmpty()) {
            throw new NbctlException("missing command name (use --help for help)");
        }
        return new Invocation(db, timeout, new TableOutput(format, bare, headings), columns, List.copyOf(commands),
                Map.copyOf(tls));
    }

    /**
     * Runs a parsed invocation on a client as one transaction.
     *
     * @param client a started client of {@code OVN_Northbound} replicating every table
     * @param invocation the commands
     * @param timeout how long to wait for the transaction's answer
     * @return exit code, output and error as ovn-nbctl's
     */
    public static Result run(OvsdbClient client, Invocation invocation, Duration timeout) {
        NorthboundCommands nb = NorthboundCommands.begin(client);
        List<String> outputs = new ArrayList<>();
        try {
            nb.ensureGlobal();
            for (Command c : invocation.commands()) {
                outputs.add(execute(nb, c, invocation));
            }
            nb.db().checkSymbols();
        } catch (NbctlException e) {
            String discarded = e.discarded() == null ? ""
                    : java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
                            .format(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC))
                            + "|00002|db_ctl_base|ERR|Discarding unhandled error: " + e.discarded() + "\n";
            return new Result(1, "", discarded + "ovn-nbctl: " + e.getMessage() + "\n");
        }
        try {
            NorthboundCommands.Committed committed = nb.commit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            // Only create prints the row's real UUID; other commands print what the list saw, as
            // ovn-nbctl does (a row inserted by the same list shows a UUID the database never had).
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < outputs.size(); i++) {
                String text = outputs.get(i);
                out.append(invocation.commands().get(i).name().equals("create") ? committed.resolve(text) : text);
            }
            return new Result(0, out.toString(), "");
        } catch (TimeoutException e) {
            return new Result(1, "", "ovn-nbctl: timeout after " + timeout.toSeconds() + " seconds\n");
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = Futures.unwrap(e);
            if (cause instanceof TransactionException te) {
                ObjectNode error = JsonNodeFactory.instance.objectNode();
                te.details().ifPresent(d -> error.put("details", d));
                error.put("error", te.error());
                return new Result(1, "", "ovn-nbctl: transaction error: " + error + "\n");
            }
            return new Result(1, "", "ovn-nbctl: " + cause.getMessage() + "\n");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(1, "", "ovn-nbctl: interrupted\n");
        }
    }

    private static String execute(NorthboundCommands nb, Command c, Invocation inv) {
        List<String> a = c.args();
        DatabaseCommands db = nb.db();
        switch (c.name()) {
            case "ls-add" -> nb.lsAdd(c.arg(0), c.has("--may-exist"), c.has("--add-duplicate"));
            case "ls-del" -> nb.lsDel(c.arg(0), c.has("--if-exists"));
            case "ls-list" -> {
                return nb.lsList();
            }
            case "lsp-add" -> nb.lspAdd(a.get(0), a.get(1), c.arg(2), c.arg(3), c.has("--may-exist"));
            case "lsp-del" -> nb.lspDel(a.get(0), c.has("--if-exists"));
            case "lsp-list" -> {
                return nb.lspList(a.get(0));
            }
            case "lsp-set-addresses" -> nb.lspSetAddresses(a.get(0), a.subList(1, a.size()));
            case "lsp-set-port-security" -> {
                if (a.isEmpty()) {
                    throw new NbctlException("'lsp-set-port-security' command requires at least 1 arguments");
                }
                nb.lspSetPortSecurity(a.get(0), a.subList(1, a.size()));
            }
            case "lsp-set-type" -> nb.lspSetType(a.get(0), a.get(1));
            case "lsp-set-options" -> nb.lspSetOptions(a.get(0), a.subList(1, a.size()));
            case "lsp-set-enabled" -> nb.lspSetEnabled(a.get(0), a.get(1));
            case "lr-add" -> nb.lrAdd(c.arg(0), c.has("--may-exist"), c.has("--add-duplicate"));
            case "lr-del" -> nb.lrDel(a.get(0), c.has("--if-exists"));
            case "lr-list" -> {
                return nb.lrList();
            }
            case "lrp-add" -> nb.lrpAdd(a.get(0), a.get(1), a.get(2), a.subList(3, a.size()), c.has("--may-exist"));
            case "lrp-del" -> nb.lrpDel(a.get(0), c.has("--if-exists"));
            case "lrp-list" -> {
                return nb.lrpList(a.get(0));
            }
            case "lrp-set-gateway-chassis" -> nb.lrpSetGatewayChassis(a.get(0), a.get(1), c.arg(2));
            case "lrp-del-gateway-chassis" -> nb.lrpDelGatewayChassis(a.get(0), a.get(1));
            case "lr-nat-add" -> natAdd(nb, c);
            case "lr-nat-del" -> nb.lrNatDel(a.get(0), c.arg(1), c.arg(2), c.arg(3), c.has("--if-exists"));
            case "lr-nat-list" -> {
                return nb.lrNatList(a.get(0));
            }
            case "lr-route-add" -> {
                if (c.has("--bfd")) {
                    throw new NbctlException("lr-route-add --bfd is not supported by ovnj");
                }
                nb.lrRouteAdd(a.get(0), a.get(1), a.get(2), c.arg(3), c.option("--policy"), c.has("--ecmp"),
                        c.has("--ecmp-symmetric-reply"), c.has("--may-exist"), c.option("--route-table"));
            }
            case "lr-route-del" -> nb.lrRouteDel(a.get(0), c.arg(1), c.arg(2), c.arg(3), c.option("--policy"),
                    c.option("--route-table"), c.has("--if-exists"));
            case "lr-route-list" -> {
                return nb.lrRouteList(a.get(0), c.option("--route-table"));
            }
            case "lr-policy-add" -> nb.lrPolicyAdd(a.get(0), a.get(1), a.get(2), a.get(3), a.subList(4, a.size()),
                    c.has("--may-exist"));
            case "lr-policy-del" -> nb.lrPolicyDel(a.get(0), c.arg(1), c.arg(2), c.has("--if-exists"));
            case "acl-add" -> nb.aclAdd(a.get(0), a.get(1), a.get(2), a.get(3), a.get(4),
                    new NorthboundCommands.AclOptions(c.option("--type"), c.has("--log"), c.option("--severity"),
                            c.option("--name"), c.option("--meter"), c.option("--label"), c.has("--apply-after-lb"),
                            c.has("--may-exist")));
            case "acl-del" -> nb.aclDel(a.get(0), c.option("--type"), c.arg(1), c.arg(2), c.arg(3));
            case "acl-list" -> {
                return nb.aclList(a.get(0), c.option("--type"));
            }
            case "pg-add" -> nb.pgAdd(a.get(0), a.subList(1, a.size()));
            case "pg-set-ports" -> nb.pgSetPorts(a.get(0), a.subList(1, a.size()));
            case "pg-del" -> nb.pgDel(a.get(0));
            case "lb-add" -> {
                if (c.has("--template") || a.size() > 4) {
                    throw new NbctlException("lb-add --template and ADDRESS_FAMILY are not supported by ovnj");
                }
                nb.lbAdd(a.get(0), a.get(1), a.get(2), c.arg(3), c.has("--may-exist"), c.has("--add-duplicate"),
                        c.has("--reject"), c.has("--event"), c.has("--add-route"));
            }
            case "lb-del" -> nb.lbDel(a.get(0), c.arg(1), c.has("--if-exists"));
            case "lb-list" -> {
                return nb.lbList(c.arg(0));
            }
            case "ls-lb-add" -> nb.lsLbAdd(a.get(0), a.get(1), c.has("--may-exist"));
            case "ls-lb-del" -> nb.lsLbDel(a.get(0), c.arg(1), c.has("--if-exists"));
            case "ls-lb-list" -> {
                return nb.lsLbList(a.get(0));
            }
            case "lr-lb-add" -> nb.lrLbAdd(a.get(0), a.get(1), c.has("--may-exist"));
            case "lr-lb-del" -> nb.lrLbDel(a.get(0), c.arg(1), c.has("--if-exists"));
            case "lr-lb-list" -> {
                return nb.lrLbList(a.get(0));
            }
            case "get" -> {
                // ovn-nbctl's get prints values in full syntax even with --bare.
                return db.get(c.has("--if-exists"), c.option("--id"), a.get(0), a.get(1), a.subList(2, a.size()), false);
            }
            case "list" -> {
                return db.list(c.has("--if-exists"), columns(c, inv), a.get(0), a.subList(1, a.size()), inv.output());
            }
            case "find" -> {
                return db.find(columns(c, inv), a.get(0), a.subList(1, a.size()), inv.output());
            }
            case "set" -> db.set(c.has("--if-exists"), a.get(0), a.get(1), a.subList(2, a.size()));
            case "add" -> db.add(c.has("--if-exists"), a.get(0), a.get(1), a.get(2), a.subList(3, a.size()));
            case "remove" -> db.remove(c.has("--if-exists"), a.get(0), a.get(1), a.get(2), a.subList(3, a.size()));
            case "clear" -> db.clear(c.has("--if-exists"), a.get(0), a.get(1), a.subList(2, a.size()));
            case "create" -> {
                UUID row = db.create(c.option("--id"), a.get(0), a.subList(1, a.size()));
                return row + "\n";
            }
            case "destroy" -> db.destroy(c.has("--if-exists"), c.has("--all"), a.get(0), a.subList(1, a.size()));
            default -> {
                if (c.name().startsWith("lsp-get-") || c.name().equals("lrp-get-gateway-chassis")) {
                    return nb.portGet(c.name(), a.get(0));
                }
                throw new NbctlException("unknown command '" + c.name() + "'; use --help for help");
            }
        }
        return "";
    }

    private static List<String> columns(Command c, Invocation inv) {
        String local = c.option("--columns");
        return local != null ? Arrays.asList(local.split(",")) : inv.columns();
    }

    private static void natAdd(NorthboundCommands nb, Command c) {
        List<String> a = c.args();
        nb.lrNatAdd(a.get(0), a.get(1), a.get(2), a.get(3), a.subList(4, a.size()), c.has("--portrange"),
                c.has("--may-exist"), c.has("--stateless"), c.has("--add-route"), c.option("--gateway-port"));
    }
}
