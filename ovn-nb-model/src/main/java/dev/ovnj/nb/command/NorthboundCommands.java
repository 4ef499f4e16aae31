package dev.ovnj.nb.command;

import dev.ovnj.nb.model.Acl;
import dev.ovnj.nb.model.GatewayChassis;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.nb.model.LogicalRouterStaticRoute;
import dev.ovnj.nb.model.LogicalSwitch;
import dev.ovnj.nb.model.LogicalSwitchPort;
import dev.ovnj.nb.model.Nat;
import dev.ovnj.nb.model.NbGlobal;
import dev.ovnj.nb.model.PortGroup;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.ValueCodec;
import dev.ovnj.ovsdb.schema.ColumnSchema;
import dev.ovnj.ovsdb.tx.Operation;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.typed.TableModel;
import dev.ovnj.ovsdb.typed.TypedRow;
import dev.ovnj.ovsdb.typed.WireEnum;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * One list of Northbound commands with ovn-nbctl's meaning, committed as one transaction.
 *
 * <p>Each method is the ovn-nbctl command its Javadoc names, with the same arguments, the same
 * {@code --may-exist} / {@code --if-exists} rules and the same refusals: a refused command
 * throws {@link NbctlException} with ovn-nbctl's message, and the list should then be dropped
 * (nothing was sent). Lookups read the client's cache, overlaid with what earlier commands of
 * the list did, so {@code lsAdd("sw0", false)} followed by {@code lspAdd("sw0", "p1", false)}
 * works as {@code ovn-nbctl ls-add sw0 -- lsp-add sw0 p1} does. Rows are built with the typed
 * model ({@code dev.ovnj.nb.model}). {@link #commit()} sends the list's net effect.
 *
 * <p>Not thread-safe: one list is built by one thread.
 */
public final class NorthboundCommands {
    private static final List<String> LSP_TYPES =
            List.of("l2gateway", "localnet", "localport", "router", "vtep", "external", "virtual", "remote");
    private static final List<String> SEVERITIES = List.of("alert", "warning", "notice", "info", "debug");

    private final OvsdbClient client;
    private final Workspace ws;
    private final DatabaseCommands db;

    private NorthboundCommands(OvsdbClient client) {
        this.client = client;
        this.ws = new Workspace(client.schema(), client.cache());
        this.db = new DatabaseCommands(ws);
    }

    /**
     * Starts a command list on a client that replicates the whole Northbound database (the default
     * monitor).
     *
     * @param client a started client of {@code OVN_Northbound}
     * @return an empty command list
     */
    public static NorthboundCommands begin(OvsdbClient client) {
        return new NorthboundCommands(client);
    }

    /**
     * The database commands ({@code create}, {@code set}, {@code get}, {@code list}, ...) of this list.
     *
     * @return the database commands, sharing this list's transaction
     */
    public DatabaseCommands db() {
        return db;
    }

    Workspace workspace() {
        return ws;
    }

    // ---- lookups, as ovn-nbctl's *_by_name_or_uuid ----

    private UUID byNameOrUuid(String table, String id, boolean mustExist, String what, boolean uniqueName) {
        boolean isUuid = DatumSyntax.isUuid(id);
        if (isUuid) {
            UUID u = UUID.fromString(id);
            if (ws.exists(table, u)) {
                return u;
            }
        }
        UUID found = null;
        for (UUID u : ws.named(table, id)) {
            if (!uniqueName) {
                return u;
            }
            if (found != null) {
                throw new NbctlException("Multiple " + plural(what) + " named '" + id + "'.  Use a UUID.");
            }
            found = u;
        }
        if (found == null && mustExist) {
            throw new NbctlException(id + ": " + what + " " + (isUuid ? "UUID" : "name") + " not found");
        }
        return found;
    }

    private static String plural(String what) {
        return switch (what) {
            case "switch" -> "logical switches";
            case "router" -> "logical routers";
            default -> what + "s";
        };
    }

    private UUID ls(String id, boolean mustExist) {
        return byNameOrUuid("Logical_Switch", id, mustExist, "switch", true);
    }

    private UUID lr(String id, boolean mustExist) {
        return byNameOrUuid("Logical_Router", id, mustExist, "router", true);
    }

    private UUID lsp(String id, boolean mustExist) {
        return byNameOrUuid("Logical_Switch_Port", id, mustExist, "port", false);
    }

    private UUID lrp(String id, boolean mustExist) {
        return byNameOrUuid("Logical_Router_Port", id, mustExist, "port", false);
    }

    private UUID pg(String id, boolean mustExist) {
        return byNameOrUuid("Port_Group", id, mustExist, "port group", false);
    }

    private UUID lb(String id, boolean mustExist) {
        return byNameOrUuid("Load_Balancer", id, mustExist, "load balancer", true);
    }

    /** The row of {@code table} whose set column holds {@code child}, or null. */
    private UUID parentOf(String table, String column, UUID child) {
        // ovn-nbctl keeps port-to-owner maps that follow its own adds and deletes.
        for (UUID u : ws.uuids(table)) {
            if (ws.effectiveContains(table, u, column, child)) {
                return u;
            }
        }
        return null;
    }

    private String nameOrUuid(String table, UUID u) {
        String n = ws.string(table, u, "name");
        return n == null || n.isEmpty() ? u.toString() : n;
    }

    private <T extends TypedRow> UUID insert(TableModel<T> model, T row) {
        Map<String, Object> columns = new LinkedHashMap<>();
        model.toColumns(row).forEach((column, value) -> {
            if (ws.hasColumn(model.name(), column)) {
                columns.put(column, value);
            } else if (!isDefault(value)) {
                throw new NbctlException(model.name() + " column " + column + " is not in this database's schema ("
                        + Releases.describe(ws.schema()) + ")");
            }
        });
        for (ColumnSchema c : ws.table(model.name()).columns()) {
            Object v = columns.get(c.name());
            if (v != null && v.equals(ValueCodec.defaultValue(c.type()))) {
                columns.remove(c.name());
            }
        }
        return ws.insert(model.name(), columns);
    }

    private static boolean isDefault(Object value) {
        return value == null || (value instanceof Set<?> s && s.isEmpty()) || (value instanceof Map<?, ?> m && m.isEmpty())
                || "".equals(value) || Long.valueOf(0).equals(value) || Boolean.FALSE.equals(value);
    }

    static <E extends Enum<E> & WireEnum> E wire(Class<E> type, String value) {
        for (E e : type.getEnumConstants()) {
            if (e.wireValue().equals(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException(value);
    }

    private void requireColumn(String table, String column, String command) {
        if (!ws.hasColumn(table, column)) {
            throw new NbctlException(command + ": " + table + " column " + column + " is not in this database's schema ("
                    + Releases.describe(ws.schema()) + ")");
        }
    }

    /** Inserts the NB_Global row when the database has none, as ovn-nbctl does before every command list. */
    void ensureGlobal() {
        if (ws.uuids("NB_Global").isEmpty()) {
            insert(NbGlobal.TABLE, NbGlobal.builder().build());
        }
    }

    // ---- logical switches ----

    /**
     * {@code ovn-nbctl [--may-exist|--add-duplicate] ls-add [SWITCH]}.
     *
     * @param name the switch name, or null for an unnamed switch
     * @param mayExist {@code --may-exist}: an existing switch of that name is no error
     * @param addDuplicate {@code --add-duplicate}: add even when the name is taken
     * @return this list
     */
    public NorthboundCommands lsAdd(String name, boolean mayExist, boolean addDuplicate) {
        if (!mayAdd("Logical_Switch", "switch", name, mayExist, addDuplicate)) {
            return this;
        }
        insert(LogicalSwitch.TABLE, LogicalSwitch.builder().name(name == null ? "" : name).build());
        return this;
    }

    /**
     * ls-add's and lr-add's name rules: refuses what ovn-nbctl refuses, and says whether to insert
     * (false when {@code --may-exist} finds the name taken: nothing to do).
     */
    private boolean mayAdd(String table, String kind, String name, boolean mayExist, boolean addDuplicate) {
        if (mayExist && addDuplicate) {
            throw new NbctlException("--may-exist and --add-duplicate may not be used together");
        }
        if (name == null) {
            if (mayExist) {
                throw new NbctlException("--may-exist requires specifying a name");
            }
            if (addDuplicate) {
                throw new NbctlException("--add-duplicate requires specifying a name");
            }
            return true;
        }
        if (addDuplicate || ws.named(table, name).isEmpty()) {
            return true;
        }
        if (mayExist) {
            return false;
        }
        throw new NbctlException(name + ": a " + kind + " with this name already exists");
    }

    /**
     * {@code ovn-nbctl ls-add SWITCH}.
     *
     * @param name the switch name
     * @param mayExist {@code --may-exist}
     * @return this list
     */
    public NorthboundCommands lsAdd(String name, boolean mayExist) {
        return lsAdd(name, mayExist, false);
    }

    /**
     * {@code ovn-nbctl [--if-exists] ls-del SWITCH}: deletes the switch (its ports go with it).
     *
     * @param id name or UUID
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lsDel(String id, boolean ifExists) {
        UUID ls = ls(id, !ifExists);
        if (ls != null) {
            // Its ports stay visible to the rest of the list, as in ovn-nbctl; the server collects them.
            ws.delete("Logical_Switch", ls);
        }
        return this;
    }

    /**
     * {@code ovn-nbctl [--may-exist] lsp-add SWITCH PORT [PARENT TAG]}.
     *
     * @param sw the switch, name or UUID
     * @param port the port name
     * @param parent the parent port name for a nested (container) port, or null
     * @param tag the VLAN tag (0 to 4095) with a parent, as text; null without
     * @param mayExist {@code --may-exist}
     * @return this list
     */
    public NorthboundCommands lspAdd(String sw, String port, String parent, String tag, boolean mayExist) {
        UUID ls = ls(sw, true);
        long tagValue = -1;
        if (parent != null || tag != null) {
            if (parent == null || tag == null) {
                throw new NbctlException("lsp-add with parent must also specify a tag");
            }
            try {
                tagValue = Long.parseLong(tag.strip());
            } catch (NumberFormatException e) {
                tagValue = -1;
            }
            if (tagValue < 0 || tagValue > 4095) {
                throw new NbctlException(tag + ": invalid tag (must be in range 0 to 4095)");
            }
        }
        UUID existing = lsp(port, false);
        if (existing != null) {
            if (!mayExist) {
                throw new NbctlException(port + ": a port with this name already exists");
            }
            UUID owner = parentOf("Logical_Switch", "ports", existing);
            if (owner == null) {
                throw new NbctlException("logical port " + port + " is not part of any logical switch");
            }
            if (!owner.equals(ls)) {
                throw new NbctlException(port + ": port already exists but in switch " + nameOrUuid("Logical_Switch", owner));
            }
            Object oldParent = ws.optional("Logical_Switch_Port", existing, "parent_name");
            if (parent != null) {
                if (oldParent == null) {
                    throw new NbctlException(port + ": port already exists but has no parent");
                } else if (!parent.equals(oldParent)) {
                    throw new NbctlException(port + ": port already exists with different parent " + oldParent);
                }
                Object oldTag = ws.optional("Logical_Switch_Port", existing, "tag_request");
                if (oldTag == null) {
                    throw new NbctlException(port + ": port already exists but has no tag_request");
                } else if ((Long) oldTag != tagValue) {
                    throw new NbctlException(port + ": port already exists with different tag_request " + oldTag);
                }
            } else if (oldParent != null) {
                throw new NbctlException(port + ": port already exists but has parent " + oldParent);
            }
            return this;
        }
        var b = LogicalSwitchPort.builder().name(port);
        if (tagValue >= 0) {
            b.parentName(parent).tagRequest(tagValue);
        }
        UUID p = insert(LogicalSwitchPort.TABLE, b.build());
        ws.addToSet("Logical_Switch", ls, "ports", p);
        return this;
    }

    /**
     * {@code ovn-nbctl [--if-exists] lsp-del PORT}.
     *
     * @param id name or UUID
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lspDel(String id, boolean ifExists) {
        UUID p = lsp(id, !ifExists);
        if (p == null) {
            return this;
        }
        UUID owner = parentOf("Logical_Switch", "ports", p);
        if (owner == null) {
            throw new NbctlException("logical port " + ws.string("Logical_Switch_Port", p, "name")
                    + " is not part of any logical switch");
        }
        ws.removeFromSet("Logical_Switch", owner, "ports", p);
        ws.delete("Logical_Switch_Port", p);
        return this;
    }

    /**
     * {@code ovn-nbctl lsp-set-addresses PORT [ADDRESS]...}: each address is {@code unknown},
     * {@code dynamic}, {@code router}, {@code dynamic IP} or {@code MAC [IP]...}; an IP another
     * port of the switch has is refused.
     *
     * @param id the port, name or UUID
     * @param addresses the addresses (none clears them)
     * @return this list
     */
    public NorthboundCommands lspSetAddresses(String id, List<String> addresses) {
        UUID p = lsp(id, true);
        UUID ls = parentOf("Logical_Switch", "ports", p);
        if (ls == null) {
            throw new NbctlException("logical port " + ws.string("Logical_Switch_Port", p, "name")
                    + " is not part of any logical switch");
        }
        for (String a : addresses) {
            if (!a.equals("unknown") && !a.equals("dynamic") && !a.equals("router") && !Addresses.startsWithMac(a)
                    && !dynamicIp(a)) {
                throw new NbctlException(a + ": Invalid address format. See ovn-nb(5). Hint: An Ethernet address must be "
                        + "listed before an IP address, together as a single argument.");
            }
            duplicateIp(ls, p, a);
        }
        ws.write("Logical_Switch_Port", p, "addresses", Set.copyOf(addresses));
        return this;
    }

    private static boolean dynamicIp(String a) {
        if (!a.startsWith("dynamic ")) {
            return false;
        }
        String rest = a.substring("dynamic ".length()).stripLeading();
        String first = rest.split("\\s+")[0];
        return Addresses.ipv4(first) != null || Addresses.ipv6(first) != null;
    }

    private void duplicateIp(UUID ls, UUID port, String address) {
        List<InetAddress> mine = Addresses.lspIps(address);
        if (mine == null) {
            return;
        }
        for (Object o : ws.set("Logical_Switch", ls, "ports")) {
            UUID other = (UUID) o;
            if (other.equals(port)) {
                continue;
            }
            for (Object entry : DatumSyntax.sorted(ws.set("Logical_Switch_Port", other, "addresses"))) {
                String addr = entry.toString();
                Object dyn = ws.optional("Logical_Switch_Port", other, "dynamic_addresses");
                if (addr.startsWith("dynamic") && dyn != null) {
                    addr = dyn.toString();
                }
                List<InetAddress> theirs = Addresses.lspIps(addr);
                if (theirs == null) {
                    continue;
                }
                for (InetAddress a : mine) {
                    if (theirs.contains(a)) {
                        String family = a instanceof java.net.Inet4Address ? "IPv4" : "IPv6";
                        throw new NbctlException("Error on switch " + ws.string("Logical_Switch", ls, "name")
                                + ": duplicate " + family + " address '" + dev.ovnj.nb.ip.IpAddresses.format(a)
                                + "' found on logical switch port '" + ws.string("Logical_Switch_Port", other, "name") + "'");
                    }
                }
            }
        }
    }

    /**
     * {@code ovn-nbctl lsp-set-port-security PORT [ADDRS]...}.
     *
     * @param id the port, name or UUID
     * @param addresses the port security entries
     * @return this list
     */
    public NorthboundCommands lspSetPortSecurity(String id, List<String> addresses) {
        UUID p = lsp(id, true);
        ws.write("Logical_Switch_Port", p, "port_security", Set.copyOf(addresses));
        return this;
    }

    /**
     * {@code ovn-nbctl lsp-set-type PORT TYPE}.
     *
     * @param id the port, name or UUID
     * @param type a known port type, or "" for a VIF
     * @return this list
     */
    public NorthboundCommands lspSetType(String id, String type) {
        UUID p = lsp(id, true);
        if (!type.isEmpty() && !LSP_TYPES.contains(type)) {
            throw new NbctlException("Logical switch port type '" + type + "' is unrecognized. Not setting type.");
        }
        ws.write("Logical_Switch_Port", p, "type", type);
        return this;
    }

    /**
     * {@code ovn-nbctl lsp-set-options PORT [KEY=VALUE]...}: replaces the options (arguments
     * without {@code =} are ignored, as ovn-nbctl does).
     *
     * @param id the port, name or UUID
     * @param options {@code KEY=VALUE} arguments
     * @return this list
     */
    public NorthboundCommands lspSetOptions(String id, List<String> options) {
        UUID p = lsp(id, true);
        ws.write("Logical_Switch_Port", p, "options", keyValues(options));
        return this;
    }

    private static Map<Object, Object> keyValues(List<String> args) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq >= 0) {
                m.putIfAbsent(a.substring(0, eq), a.substring(eq + 1));
            }
        }
        return Map.copyOf(m);
    }

    /**
     * {@code ovn-nbctl lsp-set-enabled PORT STATE}.
     *
     * @param id the port, name or UUID
     * @param state {@code enabled} or {@code disabled} (any case)
     * @return this list
     */
    public NorthboundCommands lspSetEnabled(String id, String state) {
        UUID p = lsp(id, true);
        boolean enabled;
        if (state.equalsIgnoreCase("enabled")) {
            enabled = true;
        } else if (state.equalsIgnoreCase("disabled")) {
            enabled = false;
        } else {
            throw new NbctlException(state + ": state must be \"enabled\" or \"disabled\"");
        }
        ws.write("Logical_Switch_Port", p, "enabled", Set.of(enabled));
        return this;
    }

    // ---- logical routers ----

    /**
     * {@code ovn-nbctl [--may-exist|--add-duplicate] lr-add [ROUTER]}.
     *
     * @param name the router name, or null
     * @param mayExist {@code --may-exist}
     * @param addDuplicate {@code --add-duplicate}
     * @return this list
     */
    public NorthboundCommands lrAdd(String name, boolean mayExist, boolean addDuplicate) {
        if (!mayAdd("Logical_Router", "router", name, mayExist, addDuplicate)) {
            return this;
        }
        insert(LogicalRouter.TABLE, LogicalRouter.builder().name(name == null ? "" : name).build());
        return this;
    }

    /**
     * {@code ovn-nbctl [--if-exists] lr-del ROUTER}.
     *
     * @param id name or UUID
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lrDel(String id, boolean ifExists) {
        UUID lr = lr(id, !ifExists);
        if (lr != null) {
            ws.delete("Logical_Router", lr);
        }
        return this;
    }

    /**
     * {@code ovn-nbctl [--may-exist] lrp-add ROUTER PORT MAC NETWORK... [COLUMN[:KEY]=VALUE]...}
     * ({@code peer=PEER} among the settings).
     *
     * @param router the router, name or UUID
     * @param port the port name
     * @param mac the port's MAC
     * @param networksAndSettings networks ({@code 192.0.2.1/24}) then settings, as on the command line
     * @param mayExist {@code --may-exist}
     * @return this list
     */
    public NorthboundCommands lrpAdd(String router, String port, String mac, List<String> networksAndSettings,
            boolean mayExist) {
        UUID lr = lr(router, true);
        int n = networksAndSettings.size();
        for (int i = 0; i < networksAndSettings.size(); i++) {
            if (networksAndSettings.get(i).contains("=")) {
                n = i;
                break;
            }
        }
        List<String> networks = networksAndSettings.subList(0, n);
        List<String> settings = networksAndSettings.subList(n, networksAndSettings.size());
        if (networks.isEmpty() && !Releases.after2303(ws.schema())) {
            throw new NbctlException(port + ": router port requires specifying a network");
        }
        if (!Addresses.isMac(mac)) {
            throw new NbctlException(port + ": invalid mac address " + mac);
        }
        UUID existing = lrp(port, false);
        if (existing != null) {
            if (!mayExist) {
                throw new NbctlException(port + ": a port with this name already exists");
            }
            UUID owner = parentOf("Logical_Router", "ports", existing);
            if (owner == null) {
                throw new NbctlException("port " + port + " is not part of any logical router");
            }
            if (!owner.equals(lr)) {
                throw new NbctlException(port + ": port already exists but in router " + nameOrUuid("Logical_Router", owner));
            }
            String oldMac = ws.string("Logical_Router_Port", existing, "mac");
            if (!oldMac.equalsIgnoreCase(mac) && !sameMac(oldMac, mac)) {
                throw new NbctlException(port + ": port already exists with mac " + oldMac);
            }
            Set<String> fresh = normalizedNetworks(networks);
            if (fresh == null) {
                throw new NbctlException(port + ": Invalid networks configured");
            }
            List<String> old = new ArrayList<>();
            ws.set("Logical_Router_Port", existing, "networks").forEach(o -> old.add(o.toString()));
            Set<String> orig = normalizedNetworks(old);
            if (orig == null) {
                throw new NbctlException(port + ": Existing port has invalid networks configured");
            }
            if (!orig.equals(fresh)) {
                throw new NbctlException(port + ": port already exists with different network");
            }
            String peer = null;
            for (String s : settings) {
                if (s.startsWith("peer=")) {
                    peer = s.substring(5);
                    break;
                }
            }
            Object oldPeer = ws.optional("Logical_Router_Port", existing, "peer");
            if ((peer == null) != (oldPeer == null) || (oldPeer != null && !oldPeer.equals(peer))) {
                throw new NbctlException(port + ": port already exists with mismatching peer");
            }
            return this;
        }
        for (String net : networks) {
            if (Addresses.prefix(net) == null) {
                throw new NbctlException(port + ": invalid network address: " + net);
            }
        }
        UUID p = insert(LogicalRouterPort.TABLE,
                LogicalRouterPort.builder().name(port).mac(mac).networks(new LinkedHashSet<>(networks)).build());
        for (String s : settings) {
            db.setColumn("Logical_Router_Port", p, s);
        }
        ws.addToSet("Logical_Router", lr, "ports", p);
        return this;
    }

    private static boolean sameMac(String a, String b) {
        if (!Addresses.isMac(a) || !Addresses.isMac(b)) {
            return false;
        }
        String[] x = a.split(":");
        String[] y = b.split(":");
        for (int i = 0; i < 6; i++) {
            if (Integer.parseInt(x[i], 16) != Integer.parseInt(y[i], 16)) {
                return false;
            }
        }
        return true;
    }

    private static Set<String> normalizedNetworks(List<String> networks) {
        Set<String> out = new LinkedHashSet<>();
        for (String n : networks) {
            String norm = Addresses.prefix(n);
            if (norm == null) {
                return null;
            }
            out.add(norm);
        }
        return out;
    }

    /**
     * {@code ovn-nbctl [--if-exists] lrp-del PORT}.
     *
     * @param id name or UUID
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lrpDel(String id, boolean ifExists) {
        UUID p = lrp(id, !ifExists);
        if (p == null) {
            return this;
        }
        UUID owner = parentOf("Logical_Router", "ports", p);
        if (owner == null) {
            throw new NbctlException("port " + ws.string("Logical_Router_Port", p, "name") + " is not part of any logical router");
        }
        ws.removeFromSet("Logical_Router", owner, "ports", p);
        ws.delete("Logical_Router_Port", p);
        return this;
    }

    /**
     * {@code ovn-nbctl lrp-set-gateway-chassis PORT CHASSIS [PRIORITY]}: the Gateway_Chassis row
     * is named {@code PORT-CHASSIS}.
     *
     * @param port the router port, name or UUID
     * @param chassis the chassis name
     * @param priority the priority (0 to 32767) as text, or null for 0
     * @return this list
     */
    public NorthboundCommands lrpSetGatewayChassis(String port, String chassis, String priority) {
        UUID p = lrp(port, true);
        long prio = priority == null ? 0 : parsePriority(priority);
        String gcName = port + "-" + chassis;
        UUID gc = null;
        if (Releases.since2603(ws.schema())) {
            // OVN 26.03 finds the port's own Gateway_Chassis by chassis name.
            for (Object o : ws.set("Logical_Router_Port", p, "gateway_chassis")) {
                if (chassis.equals(ws.string("Gateway_Chassis", (UUID) o, "chassis_name"))) {
                    gc = (UUID) o;
                    break;
                }
            }
            if (gc == null && DatumSyntax.isUuid(chassis) && ws.exists("Gateway_Chassis", UUID.fromString(chassis))) {
                gc = UUID.fromString(chassis);
            }
        } else {
            gc = byNameOrUuid("Gateway_Chassis", gcName, false, "gateway chassis", false);
        }
        if (gc == null) {
            gc = insert(GatewayChassis.TABLE, GatewayChassis.builder().name(gcName).chassisName(chassis).build());
        }
        ws.write("Gateway_Chassis", gc, "priority", prio);
        ws.addToSet("Logical_Router_Port", p, "gateway_chassis", gc);
        return this;
    }

    /**
     * {@code ovn-nbctl lrp-del-gateway-chassis PORT CHASSIS}.
     *
     * @param port the router port, name or UUID
     * @param chassis the chassis name
     * @return this list
     */
    public NorthboundCommands lrpDelGatewayChassis(String port, String chassis) {
        UUID p = lrp(port, true);
        for (Object o : ws.set("Logical_Router_Port", p, "gateway_chassis")) {
            UUID gc = (UUID) o;
            String name = ws.string("Gateway_Chassis", gc, "chassis_name");
            // ovn-nbctl compares the stored chassis name as a prefix of the argument.
            if (chassis.startsWith(name)) {
                ws.removeFromSet("Logical_Router_Port", p, "gateway_chassis", gc);
                ws.delete("Gateway_Chassis", gc);
                return this;
            }
        }
        throw new NbctlException("chassis " + chassis + " is not added to logical port " + port);
    }

    static long parsePriority(String arg) {
        long v;
        try {
            v = Long.parseLong(leadingInteger(arg));
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (v < 0 || v > 32767) {
            throw new NbctlException(arg + ": priority must in range 0...32767");
        }
        return v;
    }

    /** The leading integer of a text, as C's scanf reads it (trailing characters ignored). */
    static String leadingInteger(String arg) {
        String s = arg.stripLeading();
        int i = 0;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        int digits = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i == digits ? "x" : s.substring(0, i);
    }

    // ---- NAT ----

    /**
     * {@code ovn-nbctl [--may-exist] [--stateless] [--gateway-port=GW] lr-nat-add ROUTER TYPE
     * EXTERNAL_IP LOGICAL_IP [LOGICAL_PORT EXTERNAL_MAC]}.
     *
     * @param router the router, name or UUID
     * @param type {@code snat}, {@code dnat} or {@code dnat_and_snat}
     * @param externalIp the external address
     * @param logicalIp the logical address (a network for snat)
     * @param logicalPort the logical port of a distributed dnat_and_snat, or null
     * @param externalMac its external MAC, or null
     * @param mayExist {@code --may-exist}
     * @param stateless {@code --stateless}
     * @param gatewayPort {@code --gateway-port}, or null
     * @return this list
     */
    public NorthboundCommands lrNatAdd(String router, String type, String externalIp, String logicalIp, String logicalPort,
            String externalMac, boolean mayExist, boolean stateless, String gatewayPort) {
        List<String> extra = logicalPort == null ? List.of() : List.of(logicalPort, externalMac);
        return lrNatAdd(router, type, externalIp, logicalIp, extra, false, mayExist, stateless, false, gatewayPort);
    }

    NorthboundCommands lrNatAdd(String router, String type, String externalIp, String logicalIp, List<String> extra,
            boolean portRangeOption, boolean mayExist, boolean stateless, boolean addRoute, String gatewayPort) {
        UUID lr = lr(router, true);
        if (!type.equals("dnat") && !type.equals("snat") && !type.equals("dnat_and_snat")) {
            throw new NbctlException(type + ": type must be one of \"dnat\", \"snat\" and \"dnat_and_snat\".");
        }
        boolean v6 = false;
        String newExternal = Addresses.ipv4Address(externalIp);
        if (newExternal == null) {
            newExternal = Addresses.ipv6Address(externalIp);
            v6 = true;
        }
        if (newExternal == null) {
            throw new NbctlException(externalIp + ": Not a valid IPv4 or IPv6 address.");
        }
        boolean snat = type.equals("snat");
        String newLogical;
        if (!snat) {
            newLogical = v6 ? Addresses.ipv6Address(logicalIp) : Addresses.ipv4Address(logicalIp);
            if (newLogical == null) {
                throw new NbctlException(logicalIp + ": Not a valid " + (v6 ? "IPv6" : "IPv4") + " address.");
            }
        } else {
            newLogical = v6 ? Addresses.ipv6Prefix(logicalIp) : Addresses.ipv4Prefix(logicalIp);
            if (newLogical == null) {
                throw new NbctlException(logicalIp + ": should be an " + (v6 ? "IPv6" : "IPv4") + " address or network.");
            }
        }
        String logicalPort = null;
        String externalMac = null;
        String portRange = null;
        if (extra.size() == 1) {
            if (!portRangeOption) {
                throw new NbctlException("lr-nat-add with logical_port must also specify external_mac.");
            }
            portRange = extra.get(0);
            if (!validPortRange(portRange)) {
                throw new NbctlException("invalid port range " + portRange + ".");
            }
        } else if (extra.size() >= 2) {
            if (!type.equals("dnat_and_snat")) {
                throw new NbctlException("logical_port and external_mac are only valid when type is \"dnat_and_snat\".");
            }
            if (extra.size() == 2 && portRangeOption) {
                throw new NbctlException("lr-nat-add with logical_port must also specify external_mac.");
            }
            logicalPort = extra.get(0);
            lsp(logicalPort, true);
            externalMac = extra.get(1);
            if (!Addresses.isMac(externalMac)) {
                throw new NbctlException("invalid mac address " + externalMac + ".");
            }
            if (extra.size() > 2) {
                portRange = extra.get(2);
                if (!validPortRange(portRange)) {
                    throw new NbctlException("invalid port range " + portRange + ".");
                }
            }
        }
        if (!type.equals("dnat_and_snat") && stateless) {
            throw new NbctlException("stateless is not applicable to dnat or snat types");
        }
        if (snat && addRoute) {
            throw new NbctlException("routes cannot be added for snat types.");
        }
        UUID dgw = null;
        int l3dgw = 0;
        Set<Object> ports = ws.set("Logical_Router", lr, "ports");
        if (gatewayPort != null) {
            dgw = lrp(gatewayPort, true);
            boolean onRouter = false;
            for (Object o : ports) {
                if (isGatewayPort((UUID) o)) {
                    l3dgw++;
                }
                if (o.equals(dgw)) {
                    onRouter = true;
                }
            }
            if (!onRouter) {
                throw new NbctlException(gatewayPort + " is not a router port of logical router: " + router + ".");
            }
            if (!isGatewayPort(dgw)) {
                throw new NbctlException(gatewayPort + " is not a distributed gateway router port.");
            }
        } else {
            for (Object o : ports) {
                if (isGatewayPort((UUID) o)) {
                    l3dgw++;
                    if (Addresses.inNetworks(ws.set("Logical_Router_Port", (UUID) o, "networks"), newExternal)) {
                        dgw = (UUID) o;
                    }
                }
            }
            if (l3dgw > 1 && dgw == null) {
                throw new NbctlException("logical router: " + router + " has multiple distributed gateway ports and "
                        + "gateway_port can not be determined from external IP of NAT rule.");
            }
        }
        for (Object o : ws.set("Logical_Router", lr, "nat")) {
            UUID nat = (UUID) o;
            NbctlException error = null;
            boolean done = false;
            String oldExternal = Addresses.prefix(ws.string("NAT", nat, "external_ip"));
            String oldLogical = oldExternal == null ? null : Addresses.prefix(ws.string("NAT", nat, "logical_ip"));
            if (oldExternal == null || oldLogical == null) {
                continue;
            }
            String natType = ws.string("NAT", nat, "type");
            Object natGw = ws.optional("NAT", nat, "gateway_port");
            if (type.equals(natType) && (l3dgw <= 1 || (natGw != null && natGw.equals(dgw))
                    || (natGw == null && Addresses.inNetworks(ws.set("Logical_Router_Port", dgw, "networks"), oldExternal)))) {
                if ((snat ? newLogical : newExternal).equals(snat ? oldLogical : oldExternal)) {
                    if ((snat ? newExternal : newLogical).equals(snat ? oldExternal : oldLogical)) {
                        if (mayExist) {
                            ws.write("NAT", nat, "logical_port", logicalPort == null ? Set.of() : Set.of(logicalPort));
                            ws.write("NAT", nat, "external_mac", externalMac == null ? Set.of() : Set.of(externalMac));
                            done = true;
                        } else {
                            error = new NbctlException(newExternal + ", " + newLogical
                                    + ": a NAT with this external_ip and logical_ip already exists");
                        }
                    } else {
                        error = new NbctlException("a NAT with this type (" + type + "), "
                                + (snat ? "logical_ip" : "external_ip") + " (" + (snat ? newLogical : newExternal)
                                + ") already exists");
                    }
                }
            }
            if (type.equals("dnat_and_snat") || "dnat_and_snat".equals(natType)) {
                if (oldExternal.equals(newExternal)) {
                    if ("true".equals(ws.map("NAT", nat, "options").get("stateless")) || stateless) {
                        if (!mayExist) {
                            // ovn-nbctl reports only its last error of a command (and logs the earlier one).
                            error = new NbctlException(newExternal + ", " + newLogical
                                    + ": External ip cannot be shared across stateless and stateful NATs", error);
                        }
                        done = true;
                    }
                }
            }
            if (error != null) {
                throw error;
            }
            if (done) {
                return this;
            }
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("stateless", stateless ? "true" : "false");
        if (addRoute) {
            options.put("add_route", "true");
        }
        var b = Nat.builder().type(wire(Nat.Type.class, type)).externalIp(externalIp).logicalIp(newLogical)
                .options(options);
        if (logicalPort != null && externalMac != null) {
            b.logicalPort(logicalPort).externalMac(externalMac);
        }
        if (portRange != null) {
            b.externalPortRange(portRange);
        }
        if (gatewayPort != null) {
            b.gatewayPort(dgw);
        }
        UUID nat = insert(Nat.TABLE, b.build());
        ws.addToSet("Logical_Router", lr, "nat", nat);
        return this;
    }

    private static boolean validPortRange(String range) {
        String[] parts = range.split("-", -1);
        try {
            int lo = Integer.parseInt(leadingInteger(parts[0]));
            if (lo <= 0) {
                return false;
            }
            if (parts.length == 1) {
                return true;
            }
            if (parts.length != 2) {
                return false;
            }
            int hi = Integer.parseInt(leadingInteger(parts[1]));
            return lo < hi && hi <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private boolean isGatewayPort(UUID lrp) {
        return ws.optional("Logical_Router_Port", lrp, "ha_chassis_group") != null
                || !ws.set("Logical_Router_Port", lrp, "gateway_chassis").isEmpty();
    }

    /**
     * {@code ovn-nbctl [--if-exists] lr-nat-del ROUTER [TYPE [IP [GATEWAY_PORT]]]}.
     *
     * @param router the router, name or UUID
     * @param type the NAT type, or null for all NATs
     * @param ip the external (logical for snat) address, a gateway port name, or null
     * @param gatewayPort the gateway port, or null
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lrNatDel(String router, String type, String ip, String gatewayPort, boolean ifExists) {
        UUID lr = lr(router, true);
        if (type == null) {
            ws.write("Logical_Router", lr, "nat", Set.of());
            return this;
        }
        if (!type.equals("dnat") && !type.equals("snat") && !type.equals("dnat_and_snat")) {
            throw new NbctlException(type + ": type must be one of \"dnat\", \"snat\" and \"dnat_and_snat\".");
        }
        List<Object> nats = new ArrayList<>(ws.set("Logical_Router", lr, "nat"));
        if (ip == null) {
            for (Object o : nats) {
                if (type.equals(ws.string("NAT", (UUID) o, "type"))) {
                    ws.removeFromSet("Logical_Router", lr, "nat", o);
                }
            }
            return this;
        }
        String natIp = Addresses.prefix(ip);
        boolean snat = type.equals("snat");
        if (gatewayPort == null) {
            if (natIp == null) {
                UUID dgw = lrp(ip, true);
                for (Object o : nats) {
                    if (type.equals(ws.string("NAT", (UUID) o, "type"))
                            && dgw.equals(ws.optional("NAT", (UUID) o, "gateway_port"))) {
                        ws.removeFromSet("Logical_Router", lr, "nat", o);
                    }
                }
                return this;
            }
            for (Object o : nats) {
                String old = Addresses.prefix(ws.string("NAT", (UUID) o, snat ? "logical_ip" : "external_ip"));
                if (old != null && type.equals(ws.string("NAT", (UUID) o, "type")) && natIp.equals(old)) {
                    ws.removeFromSet("Logical_Router", lr, "nat", o);
                }
            }
            return this;
        }
        if (natIp == null) {
            throw new NbctlException(ip + ": Invalid IP address or CIDR");
        }
        UUID dgw = lrp(gatewayPort, true);
        for (Object o : nats) {
            String old = Addresses.prefix(ws.string("NAT", (UUID) o, snat ? "logical_ip" : "external_ip"));
            if (old != null && type.equals(ws.string("NAT", (UUID) o, "type")) && natIp.equals(old)
                    && dgw.equals(ws.optional("NAT", (UUID) o, "gateway_port"))) {
                ws.removeFromSet("Logical_Router", lr, "nat", o);
                return this;
            }
        }
        if (!ifExists) {
            throw new NbctlException("no matching NAT with the type (" + type + "), " + (snat ? "logical_ip" : "external_ip")
                    + " (" + natIp + ") and gateway_port (" + gatewayPort + ")");
        }
        return this;
    }

    // ---- static routes ----

    /**
     * {@code ovn-nbctl [--may-exist] [--ecmp|--ecmp-symmetric-reply] [--policy=POLICY]
     * [--route-table=TABLE] lr-route-add ROUTER PREFIX NEXTHOP [PORT]}: the prefix is normalized
     * ({@code 10.0.0.7/24} is stored as {@code 10.0.0.0/24}).
     *
     * @param router the router, name or UUID
     * @param prefix the destination (or source with policy src-ip) prefix
     * @param nexthop the next hop address, {@code discard}, or an output port
     * @param outputPort the output port, or null
     * @param policy {@code dst-ip}, {@code src-ip}, or null
     * @param ecmp {@code --ecmp}
     * @param ecmpSymmetricReply {@code --ecmp-symmetric-reply}
     * @param mayExist {@code --may-exist}
     * @param routeTable {@code --route-table}, or null
     * @return this list
     */
    public NorthboundCommands lrRouteAdd(String router, String prefix, String nexthop, String outputPort, String policy,
            boolean ecmp, boolean ecmpSymmetricReply, boolean mayExist, String routeTable) {
        UUID lr = lr(router, true);
        boolean src = false;
        if (policy != null) {
            if (policy.equals("src-ip")) {
                src = true;
            } else if (!policy.equals("dst-ip")) {
                throw new NbctlException("bad policy: " + policy);
            }
        }
        boolean v6 = false;
        String p = Addresses.ipv4Prefix(prefix);
        if (p == null) {
            p = Addresses.ipv6Prefix(prefix);
            v6 = true;
        }
        if (p == null) {
            throw new NbctlException("bad prefix argument: " + prefix);
        }
        boolean discard = nexthop.equals("discard");
        String hop;
        UUID outLrp = null;
        if (discard) {
            hop = "discard";
        } else {
            boolean anyFamily = Releases.after2303(ws.schema());
            if (anyFamily) {
                hop = Addresses.ipv4Address(nexthop);
                hop = hop != null ? hop : Addresses.ipv6Address(nexthop);
            } else {
                hop = v6 ? Addresses.ipv6Address(nexthop) : Addresses.ipv4Address(nexthop);
            }
            if (hop == null) {
                outLrp = lrp(nexthop, false);
                if (outLrp == null) {
                    throw new NbctlException(anyFamily ? "bad nexthop argument: " + nexthop
                            : "bad " + (v6 ? "IPv6" : "IPv4") + " nexthop argument: " + nexthop);
                }
                hop = "";
            }
        }
        if (outputPort != null) {
            outLrp = lrp(outputPort, true);
        }
        boolean anyEcmp = ecmp || ecmpSymmetricReply;
        UUID route = findRoute(lr, p, hop, src, anyEcmp, routeTable);
        if (discard) {
            if (anyEcmp) {
                throw new NbctlException("ecmp is not valid for discard routes.");
            }
            if (outLrp != null) {
                throw new NbctlException("outport is not valid for discard routes.");
            }
        }
        String r = "Logical_Router_Static_Route";
        if (!anyEcmp) {
            if (route != null && !ws.map(r, route, "external_ids").containsKey("ic-learned-route")) {
                if (!mayExist) {
                    throw new NbctlException("duplicate prefix: " + p + " (policy: " + (src ? "src-ip" : "dst-ip")
                            + "). Use option --ecmp to allow this for ECMP routing.");
                }
                ws.write(r, route, "ip_prefix", p);
                ws.write(r, route, "nexthop", hop);
                if (outLrp != null) {
                    ws.write(r, route, "output_port", Set.of(ws.string("Logical_Router_Port", outLrp, "name")));
                }
                if (policy != null) {
                    ws.write(r, route, "policy", Set.of(policy));
                }
                return this;
            }
        } else if (route != null) {
            if (!mayExist) {
                throw new NbctlException("duplicate nexthop for the same ECMP route");
            }
            return this;
        }
        if (findRoute(lr, p, "discard", src, true, routeTable) != null) {
            throw new NbctlException("discard nexthop for the same ECMP route exists.");
        }
        var b = LogicalRouterStaticRoute.builder().ipPrefix(p).nexthop(hop);
        if (outLrp != null) {
            b.outputPort(ws.string("Logical_Router_Port", outLrp, "name"));
        }
        if (policy != null) {
            b.policy(wire(LogicalRouterStaticRoute.Policy.class, policy));
        }
        if (routeTable != null) {
            requireColumn(r, "route_table", "lr-route-add --route-table");
            b.routeTable(routeTable);
        }
        if (ecmpSymmetricReply) {
            b.putOptions("ecmp_symmetric_reply", "true");
        }
        UUID created = insert(LogicalRouterStaticRoute.TABLE, b.build());
        ws.addToSet("Logical_Router", lr, "static_routes", created);
        return this;
    }

    private String routeTable(UUID route) {
        return ws.hasColumn("Logical_Router_Static_Route", "route_table")
                ? ws.string("Logical_Router_Static_Route", route, "route_table") : "";
    }

    private UUID findRoute(UUID lr, String prefix, String hop, boolean src, boolean ecmp, String routeTable) {
        String r = "Logical_Router_Static_Route";
        for (Object o : ws.set("Logical_Router", lr, "static_routes")) {
            UUID route = (UUID) o;
            if (!routeTable(route).equals(routeTable == null ? "" : routeTable)) {
                continue;
            }
            boolean routeSrc = "src-ip".equals(ws.optional(r, route, "policy"));
            if (src != routeSrc) {
                continue;
            }
            String rp = Addresses.prefix(ws.string(r, route, "ip_prefix"));
            if (rp == null || !rp.equals(prefix)) {
                continue;
            }
            if (ecmp && !hop.equals(ws.string(r, route, "nexthop"))) {
                continue;
            }
            return route;
        }
        return null;
    }

    /**
     * {@code ovn-nbctl [--if-exists] [--policy=POLICY] [--route-table=TABLE] lr-route-del ROUTER
     * [PREFIX [NEXTHOP [PORT]]]}.
     *
     * @param router the router, name or UUID
     * @param prefix the prefix, or null for all routes
     * @param nexthop the next hop, or null
     * @param outputPort the output port, or null
     * @param policy the policy, or null
     * @param routeTable the route table, or null
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lrRouteDel(String router, String prefix, String nexthop, String outputPort, String policy,
            String routeTable, boolean ifExists) {
        UUID lr = lr(router, true);
        boolean src = false;
        if (policy != null) {
            if (policy.equals("src-ip")) {
                src = true;
            } else if (!policy.equals("dst-ip")) {
                throw new NbctlException("bad policy: " + policy);
            }
        }
        if (prefix == null && policy == null) {
            ws.write("Logical_Router", lr, "static_routes", Set.of());
            return this;
        }
        String p = null;
        if (prefix != null) {
            p = Addresses.prefix(prefix);
            if (p == null) {
                throw new NbctlException("bad prefix argument: " + prefix);
            }
        }
        String hop = null;
        if (nexthop != null) {
            hop = nexthop.equals("discard") ? "discard" : Addresses.prefix(nexthop);
            if (hop == null) {
                throw new NbctlException("bad nexthop argument: " + nexthop);
            }
        }
        String r = "Logical_Router_Static_Route";
        int removed = 0;
        for (Object o : new ArrayList<>(ws.set("Logical_Router", lr, "static_routes"))) {
            UUID route = (UUID) o;
            if (policy != null && src != "src-ip".equals(ws.optional(r, route, "policy"))) {
                continue;
            }
            if (p != null) {
                String rp = Addresses.prefix(ws.string(r, route, "ip_prefix"));
                if (rp == null || !rp.equals(p)) {
                    continue;
                }
            }
            if (hop != null) {
                String stored = ws.string(r, route, "nexthop");
                String rh = stored.equals("discard") ? "discard" : Addresses.prefix(stored);
                if (rh == null || !rh.equals(hop)) {
                    continue;
                }
            }
            if (!routeTable(route).equals(routeTable == null ? "" : routeTable)) {
                continue;
            }
            if (outputPort != null && !outputPort.equals(ws.optional(r, route, "output_port"))) {
                continue;
            }
            ws.removeFromSet("Logical_Router", lr, "static_routes", route);
            removed++;
        }
        if (removed == 0 && !ifExists) {
            throw new NbctlException("no matching route: policy '" + (policy == null ? "any" : policy) + "', prefix '" + p
                    + "', nexthop '" + (hop == null ? "any" : hop) + "', output_port '"
                    + (outputPort == null ? "any" : outputPort) + "'.");
        }
        return this;
    }

    // ---- routing policies ----

    /**
     * {@code ovn-nbctl [--may-exist] lr-policy-add ROUTER PRIORITY MATCH ACTION [NEXTHOP[,NEXTHOP...]]
     * [KEY=VALUE]...}: a policy is identified by priority and match; {@code reroute} needs next hops
     * of one address family.
     *
     * @param router the router, name or UUID
     * @param priority 0 to 32767, as text
     * @param match the match expression
     * @param action {@code allow}, {@code drop} or {@code reroute}
     * @param rest the next hops (with reroute) then {@code KEY=VALUE} options
     * @param mayExist {@code --may-exist}
     * @return this list
     */
    public NorthboundCommands lrPolicyAdd(String router, String priority, String match, String action, List<String> rest,
            boolean mayExist) {
        UUID lr = lr(router, true);
        long prio = parsePriority(priority);
        boolean newer = Releases.after2303(ws.schema());
        if (!List.of("allow", "drop", "reroute").contains(action)) {
            throw new NbctlException(action + (newer ? ": action must be one of \"allow\", \"drop\", \"reroute\", \"jump\""
                    : ": action must be one of \"allow\", \"drop\", and \"reroute\""));
        }
        boolean reroute = action.equals("reroute");
        if (reroute && rest.isEmpty()) {
            throw new NbctlException("Nexthop is required when action is reroute.");
        }
        String t = "Logical_Router_Policy";
        for (Object o : ws.set("Logical_Router", lr, "policies")) {
            UUID policy = (UUID) o;
            if (prio == (Long) ws.get(t, policy, "priority") && match.equals(ws.string(t, policy, "match"))) {
                if (!mayExist) {
                    throw new NbctlException("Same routing policy already existed on the logical router " + router + ".");
                }
                return this;
            }
        }
        Set<String> nexthops = new LinkedHashSet<>();
        if (reroute) {
            Boolean v4 = null;
            for (String token : rest.get(0).split(",")) {
                if (token.isEmpty()) {
                    continue;
                }
                String hop = Addresses.ipv4Address(token);
                hop = hop != null ? hop : Addresses.ipv6Address(token);
                if (hop == null) {
                    throw new NbctlException("bad next hop argument: " + rest.get(0));
                }
                boolean isV4 = hop.contains(".");
                if (v4 == null) {
                    v4 = isV4;
                } else if (v4 != isV4) {
                    throw new NbctlException("bad next hops argument, not in the same addr family : " + rest.get(0));
                }
                nexthops.add(hop);
            }
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (String kv : rest.subList(reroute ? 1 : 0, rest.size())) {
            int eq = kv.indexOf('=');
            if (eq < 0 || eq == kv.length() - 1) {
                throw new NbctlException("No value specified for the option : " + (eq < 0 ? kv : kv.substring(0, eq)));
            }
            options.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        var b = dev.ovnj.nb.model.LogicalRouterPolicy.builder().priority(prio).match(match)
                .action(wire(dev.ovnj.nb.model.LogicalRouterPolicy.Action.class, action)).nexthops(nexthops).options(options);
        UUID policy = insert(dev.ovnj.nb.model.LogicalRouterPolicy.TABLE, b.build());
        ws.addToSet("Logical_Router", lr, "policies", policy);
        return this;
    }

    /**
     * {@code ovn-nbctl [--if-exists] lr-policy-del ROUTER [{PRIORITY | UUID} [MATCH]]}.
     *
     * @param router the router, name or UUID
     * @param priorityOrUuid a priority, a policy UUID, or null for all policies
     * @param match the match (with a priority), or null
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lrPolicyDel(String router, String priorityOrUuid, String match, boolean ifExists) {
        UUID lr = lr(router, true);
        if (priorityOrUuid == null) {
            ws.write("Logical_Router", lr, "policies", Set.of());
            return this;
        }
        String t = "Logical_Router_Policy";
        List<Object> policies = new ArrayList<>(ws.set("Logical_Router", lr, "policies"));
        UUID uuid = DatumSyntax.isUuid(priorityOrUuid) ? UUID.fromString(priorityOrUuid) : null;
        long prio = uuid == null ? parsePriority(priorityOrUuid) : 0;
        if (match == null) {
            if (uuid != null) {
                if (policies.contains(uuid)) {
                    ws.removeFromSet("Logical_Router", lr, "policies", uuid);
                } else if (!ifExists) {
                    throw new NbctlException("Logical router policy uuid is not found.");
                }
                return this;
            }
            for (Object o : policies) {
                if (prio == (Long) ws.get(t, (UUID) o, "priority")) {
                    ws.removeFromSet("Logical_Router", lr, "policies", o);
                }
            }
            return this;
        }
        for (Object o : policies) {
            if (prio == (Long) ws.get(t, (UUID) o, "priority") && match.equals(ws.string(t, (UUID) o, "match"))) {
                ws.removeFromSet("Logical_Router", lr, "policies", o);
                return this;
            }
        }
        return this;
    }

    // ---- ACLs ----

    /**
     * The options of {@code acl-add} beyond its arguments.
     *
     * @param type {@code --type}: {@code switch} or {@code port-group}, or null to look both up
     * @param log {@code --log}
     * @param severity {@code --severity}, or null
     * @param name {@code --name}, or null
     * @param meter {@code --meter}, or null
     * @param label {@code --label} as text, or null (not in OVN 23.03's schema)
     * @param applyAfterLb {@code --apply-after-lb}
     * @param mayExist {@code --may-exist}
     */
    public record AclOptions(String type, boolean log, String severity, String name, String meter, String label,
            boolean applyAfterLb, boolean mayExist) {
        /** No options. */
        public static final AclOptions NONE = new AclOptions(null, false, null, null, null, null, false, false);
    }

    private UUID[] aclOwner(String entity, String type) {
        UUID pg = null;
        UUID ls = null;
        if (type == null) {
            pg = pg(entity, false);
            ls = ls(entity, false);
            if (pg != null && ls != null) {
                throw new NbctlException("Same name '" + entity + "' exists in both port-groups and logical switches. "
                        + "Specify --type=port-group or switch, or use a UUID.");
            }
            if (pg == null && ls == null) {
                throw new NbctlException("'" + entity + "' is not found for port-group or switch.");
            }
        } else if (type.equals("port-group")) {
            pg = pg(entity, true);
        } else if (type.equals("switch")) {
            ls = ls(entity, true);
        } else {
            throw new NbctlException("Invalid value '" + type + "' for option --type");
        }
        return new UUID[] {pg, ls};
    }

    static String parseDirection(String arg) {
        if (arg.startsWith("t")) {
            return "to-lport";
        }
        if (arg.startsWith("f")) {
            return "from-lport";
        }
        throw new NbctlException(arg + ": direction must be \"to-lport\" or \"from-lport\"");
    }

    /**
     * {@code ovn-nbctl [--type=TYPE] [--log] [--severity=S] [--name=N] [--meter=M] [--label=L]
     * [--may-exist] [--apply-after-lb] acl-add ENTITY DIRECTION PRIORITY MATCH VERDICT}.
     *
     * @param entity a switch or port group, name or UUID
     * @param direction {@code from-lport} or {@code to-lport} (the first letter suffices)
     * @param priority 0 to 32767, as text
     * @param match the match expression
     * @param action {@code allow}, {@code allow-related}, {@code allow-stateless}, {@code drop} or {@code reject}
     * @param options the options
     * @return this list
     */
    public NorthboundCommands aclAdd(String entity, String direction, String priority, String match, String action,
            AclOptions options) {
        UUID[] owner = aclOwner(entity, options.type());
        String dir = parseDirection(direction);
        long prio = parsePriority(priority);
        boolean pass = Releases.after2303(ws.schema());
        if (!List.of("allow", "allow-related", "allow-stateless", "drop", "reject").contains(action)
                && !(pass && action.equals("pass"))) {
            throw new NbctlException(action + ": action must be one of \"allow\", \"allow-related\", \"allow-stateless\", "
                    + "\"drop\", and \"reject\"");
        }
        var b = Acl.builder().priority(prio).direction(wire(Acl.Direction.class, dir)).match(match)
                .action(wire(Acl.Action.class, action));
        if (options.log() || options.severity() != null || options.name() != null || options.meter() != null) {
            b.log(true);
        }
        if (options.severity() != null) {
            if (!SEVERITIES.contains(options.severity())) {
                throw new NbctlException("bad severity: " + options.severity());
            }
            b.severity(wire(Acl.Severity.class, options.severity()));
        }
        if (options.name() != null) {
            b.name(options.name());
        }
        if (options.meter() != null) {
            b.meter(options.meter());
        }
        if (options.label() != null) {
            if (!action.equals("allow") && !action.equals("allow-related")) {
                throw new NbctlException("label can only be set with actions \"allow\" or \"allow-related\"");
            }
            long label;
            try {
                label = Long.parseLong(leadingInteger(options.label()));
            } catch (NumberFormatException e) {
                label = -1;
            }
            if (label < 0 || label > 4294967295L) {
                throw new NbctlException(options.label() + ": label must in range 0...4294967295");
            }
            requireColumn("ACL", "label", "acl-add --label");
            b.label(label);
        }
        boolean afterLb = dir.equals("from-lport") && options.applyAfterLb();
        if (afterLb) {
            b.putOptions("apply-after-lb", "true");
        }
        String ownerTable = owner[0] != null ? "Port_Group" : "Logical_Switch";
        UUID ownerRow = owner[0] != null ? owner[0] : owner[1];
        for (Object o : ws.set(ownerTable, ownerRow, "acls")) {
            UUID acl = (UUID) o;
            boolean otherAfterLb = "true".equals(ws.map("ACL", acl, "options").get("apply-after-lb"));
            if (dir.equals(ws.string("ACL", acl, "direction")) && afterLb == otherAfterLb
                    && prio == (Long) ws.get("ACL", acl, "priority") && match.equals(ws.string("ACL", acl, "match"))) {
                if (!options.mayExist()) {
                    throw new NbctlException("Same ACL already existed on the ls " + entity + ".");
                }
                return this;
            }
        }
        UUID acl = insert(Acl.TABLE, b.build());
        ws.addToSet(ownerTable, ownerRow, "acls", acl);
        return this;
    }

    /**
     * {@code ovn-nbctl [--type=TYPE] acl-del ENTITY [DIRECTION [PRIORITY MATCH]]}.
     *
     * @param entity a switch or port group, name or UUID
     * @param type {@code --type}, or null
     * @param direction the direction, or null for all ACLs
     * @param priority the priority, or null for all of the direction
     * @param match the match (required with a priority)
     * @return this list
     */
    public NorthboundCommands aclDel(String entity, String type, String direction, String priority, String match) {
        UUID[] owner = aclOwner(entity, type);
        String ownerTable = owner[0] != null ? "Port_Group" : "Logical_Switch";
        UUID ownerRow = owner[0] != null ? owner[0] : owner[1];
        if (direction == null) {
            ws.write(ownerTable, ownerRow, "acls", Set.of());
            return this;
        }
        String dir = parseDirection(direction);
        List<Object> acls = new ArrayList<>(ws.set(ownerTable, ownerRow, "acls"));
        if (priority == null) {
            for (Object o : acls) {
                if (dir.equals(ws.string("ACL", (UUID) o, "direction"))) {
                    ws.removeFromSet(ownerTable, ownerRow, "acls", o);
                }
            }
            return this;
        }
        long prio = parsePriority(priority);
        if (match == null) {
            throw new NbctlException("cannot specify priority without match");
        }
        for (Object o : acls) {
            UUID acl = (UUID) o;
            if (prio == (Long) ws.get("ACL", acl, "priority") && match.equals(ws.string("ACL", acl, "match"))
                    && dir.equals(ws.string("ACL", acl, "direction"))) {
                ws.removeFromSet(ownerTable, ownerRow, "acls", acl);
                return this;
            }
        }
        return this;
    }

    // ---- port groups ----

    /**
     * {@code ovn-nbctl pg-add GROUP [PORT]...}.
     *
     * @param name the port group name
     * @param ports its ports, names or UUIDs
     * @return this list
     */
    public NorthboundCommands pgAdd(String name, List<String> ports) {
        UUID pg = insert(PortGroup.TABLE, PortGroup.builder().name(name).build());
        if (!ports.isEmpty()) {
            setPorts(pg, ports);
        }
        return this;
    }

    private void setPorts(UUID pg, List<String> ports) {
        Set<Object> uuids = new LinkedHashSet<>();
        for (String p : ports) {
            uuids.add(lsp(p, true));
        }
        ws.write("Port_Group", pg, "ports", Set.copyOf(uuids));
    }

    /**
     * {@code ovn-nbctl pg-set-ports GROUP PORT...}.
     *
     * @param group the port group, name or UUID
     * @param ports the ports it holds from now on
     * @return this list
     */
    public NorthboundCommands pgSetPorts(String group, List<String> ports) {
        setPorts(pg(group, true), ports);
        return this;
    }

    /**
     * {@code ovn-nbctl pg-del GROUP}.
     *
     * @param group the port group, name or UUID
     * @return this list
     */
    public NorthboundCommands pgDel(String group) {
        ws.delete("Port_Group", pg(group, true));
        return this;
    }

    // ---- address sets (ovn-nbctl has no verbs for them; ovsdbapp's address_set_* meaning) ----

    /**
     * Creates an address set; ovn-nbctl has no such command (it is {@code create Address_Set
     * name=NAME addresses=...}), so this follows ovsdbapp's {@code address_set_add}: an existing
     * set of that name is an error unless {@code mayExist}, and then is left as it is.
     *
     * @param name the address set name
     * @param addresses its addresses
     * @param mayExist an existing set of that name is no error
     * @return this list
     */
    public NorthboundCommands addressSetAdd(String name, List<String> addresses, boolean mayExist) {
        UUID existing = byNameOrUuid("Address_Set", name, false, "address set", false);
        if (existing != null) {
            if (mayExist) {
                return this;
            }
            throw new NbctlException(name + ": an address set with this name already exists");
        }
        insert(dev.ovnj.nb.model.AddressSet.TABLE,
                dev.ovnj.nb.model.AddressSet.builder().name(name).addresses(new LinkedHashSet<>(addresses)).build());
        return this;
    }

    /**
     * Adds addresses to an address set (ovsdbapp's {@code address_set_add_addresses}).
     *
     * @param name the address set, name or UUID
     * @param addresses the addresses to add
     * @return this list
     */
    public NorthboundCommands addressSetAddAddresses(String name, List<String> addresses) {
        UUID set = byNameOrUuid("Address_Set", name, true, "address set", false);
        Set<Object> all = new LinkedHashSet<>(ws.set("Address_Set", set, "addresses"));
        all.addAll(addresses);
        ws.write("Address_Set", set, "addresses", Set.copyOf(all));
        return this;
    }

    /**
     * Removes addresses from an address set (ovsdbapp's {@code address_set_remove_addresses}).
     *
     * @param name the address set, name or UUID
     * @param addresses the addresses to remove
     * @return this list
     */
    public NorthboundCommands addressSetRemoveAddresses(String name, List<String> addresses) {
        UUID set = byNameOrUuid("Address_Set", name, true, "address set", false);
        Set<Object> all = new LinkedHashSet<>(ws.set("Address_Set", set, "addresses"));
        all.removeAll(addresses);
        ws.write("Address_Set", set, "addresses", Set.copyOf(all));
        return this;
    }

    /**
     * Deletes an address set (ovsdbapp's {@code address_set_del}).
     *
     * @param name the address set, name or UUID
     * @param ifExists a missing set is no error
     * @return this list
     */
    public NorthboundCommands addressSetDel(String name, boolean ifExists) {
        UUID set = byNameOrUuid("Address_Set", name, !ifExists, "address set", false);
        if (set != null) {
            ws.delete("Address_Set", set);
        }
        return this;
    }

    // ---- load balancers ----

    /**
     * {@code ovn-nbctl [--may-exist|--add-duplicate] lb-add LB VIP[:PORT] IP[:PORT][,...] [PROTOCOL]}.
     *
     * @param name the load balancer name
     * @param vip the VIP ({@code IP}, {@code IP:PORT} or {@code [IPv6]:PORT})
     * @param backends the comma-separated backends
     * @param protocol {@code tcp}, {@code udp} or {@code sctp}; null for the default {@code tcp}
     * @param mayExist {@code --may-exist}
     * @param addDuplicate {@code --add-duplicate}
     * @return this list
     */
    public NorthboundCommands lbAdd(String name, String vip, String backends, String protocol, boolean mayExist,
            boolean addDuplicate) {
        return lbAdd(name, vip, backends, protocol, mayExist, addDuplicate, false, false, false);
    }

    NorthboundCommands lbAdd(String name, String vip, String backends, String protocol, boolean mayExist,
            boolean addDuplicate, boolean reject, boolean event, boolean addRoute) {
        if (event && reject) {
            throw new NbctlException("--reject and --event can't specified at the same time");
        }
        String proto = protocol == null ? "tcp" : protocol;
        if (protocol != null && !List.of("tcp", "udp", "sctp").contains(protocol)) {
            throw new NbctlException(protocol + ": protocol must be one of \"tcp\", \"udp\",  or \"sctp\".");
        }
        LbVip parsed = LbVip.parse(vip, backends);
        if (protocol != null && parsed.port() == null) {
            throw new NbctlException("Protocol is unnecessary when no port of vip is given.");
        }
        String key = parsed.key();
        String value = parsed.backends();
        if (!addDuplicate) {
            UUID lb = lb(name, false);
            if (lb != null) {
                Map<Object, Object> vips = new LinkedHashMap<>(ws.map("Load_Balancer", lb, "vips"));
                if (vips.containsKey(key) && !mayExist) {
                    throw new NbctlException(name + ": a load balancer with this vip (" + key + ") already exists");
                }
                vips.put(key, value);
                if (protocol != null) {
                    ws.write("Load_Balancer", lb, "protocol", Set.of(protocol));
                }
                ws.write("Load_Balancer", lb, "vips", Map.copyOf(vips));
                return this;
            }
        }
        Map<String, String> options = new LinkedHashMap<>();
        if (reject) {
            options.put("reject", "true");
        }
        if (event) {
            options.put("event", "true");
        }
        if (addRoute) {
            options.put("add_route", "true");
        }
        insert(LoadBalancer.TABLE, LoadBalancer.builder().name(name)
                .protocol(wire(LoadBalancer.Protocol.class, proto)).putVips(key, value).options(options).build());
        return this;
    }

    /**
     * {@code ovn-nbctl [--if-exists] lb-del LB [VIP]}: a load balancer that does not exist is
     * no error even without {@code --if-exists}, as in ovn-nbctl; a VIP it lacks is.
     *
     * @param id the load balancer, name or UUID
     * @param vip the VIP to remove, or null for the whole load balancer
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lbDel(String id, String vip, boolean ifExists) {
        UUID lb = lb(id, false);
        if (lb == null) {
            return this;
        }
        if (vip != null) {
            Map<Object, Object> vips = new LinkedHashMap<>(ws.map("Load_Balancer", lb, "vips"));
            if (vips.containsKey(vip)) {
                vips.remove(vip);
                if (vips.isEmpty()) {
                    ws.delete("Load_Balancer", lb);
                    removeReferences(lb);
                    return this;
                }
                ws.write("Load_Balancer", lb, "vips", Map.copyOf(vips));
                return this;
            }
            if (!ifExists) {
                throw new NbctlException("vip " + vip + " is not part of the load balancer.");
            }
            return this;
        }
        ws.delete("Load_Balancer", lb);
        removeReferences(lb);
        return this;
    }

    /** Drops weak references to a deleted row from this list's view, as the server will. */
    private void removeReferences(UUID row) {
        for (String t : List.of("Logical_Switch", "Logical_Router", "Load_Balancer_Group")) {
            if (ws.schema().findTable(t).isEmpty()) {
                continue;
            }
            for (UUID u : ws.uuids(t)) {
                if (ws.set(t, u, "load_balancer").contains(row)) {
                    ws.removeFromSet(t, u, "load_balancer", row);
                }
            }
        }
    }

    private NorthboundCommands attachLb(String table, String what, UUID owner, String lbId, boolean mayExist) {
        UUID lb = lb(lbId, true);
        if (ws.set(table, owner, "load_balancer").contains(lb)) {
            if (mayExist) {
                return this;
            }
            throw new NbctlException(lb + " : a load balancer with this UUID already exists");
        }
        ws.addToSet(table, owner, "load_balancer", lb);
        return this;
    }

    private NorthboundCommands detachLb(String table, String what, UUID owner, String lbId, boolean ifExists) {
        if (lbId == null) {
            ws.write(table, owner, "load_balancer", Set.of());
            return this;
        }
        UUID lb = lb(lbId, true);
        if (ws.set(table, owner, "load_balancer").contains(lb)) {
            ws.removeFromSet(table, owner, "load_balancer", lb);
            return this;
        }
        if (!ifExists) {
            throw new NbctlException("load balancer " + ws.string("Load_Balancer", lb, "name") + " is not part of any logical "
                    + what + ".");
        }
        return this;
    }

    /**
     * {@code ovn-nbctl [--may-exist] ls-lb-add SWITCH LB}.
     *
     * @param sw the switch, name or UUID
     * @param lb the load balancer, name or UUID
     * @param mayExist {@code --may-exist}
     * @return this list
     */
    public NorthboundCommands lsLbAdd(String sw, String lb, boolean mayExist) {
        return attachLb("Logical_Switch", "switch", ls(sw, true), lb, mayExist);
    }

    /**
     * {@code ovn-nbctl [--if-exists] ls-lb-del SWITCH [LB]}.
     *
     * @param sw the switch, name or UUID
     * @param lb the load balancer, or null for all
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lsLbDel(String sw, String lb, boolean ifExists) {
        return detachLb("Logical_Switch", "switch", ls(sw, true), lb, ifExists);
    }

    /**
     * {@code ovn-nbctl [--may-exist] lr-lb-add ROUTER LB}.
     *
     * @param router the router, name or UUID
     * @param lb the load balancer, name or UUID
     * @param mayExist {@code --may-exist}
     * @return this list
     */
    public NorthboundCommands lrLbAdd(String router, String lb, boolean mayExist) {
        return attachLb("Logical_Router", "router", lr(router, true), lb, mayExist);
    }

    /**
     * {@code ovn-nbctl [--if-exists] lr-lb-del ROUTER [LB]}.
     *
     * @param router the router, name or UUID
     * @param lb the load balancer, or null for all
     * @param ifExists {@code --if-exists}
     * @return this list
     */
    public NorthboundCommands lrLbDel(String router, String lb, boolean ifExists) {
        return detachLb("Logical_Router", "router", lr(router, true), lb, ifExists);
    }

    // ---- listings ----

    /**
     * {@code ovn-nbctl ls-list}.
     *
     * @return the output, one {@code UUID (name)} line per switch, by name
     */
    public String lsList() {
        return Listings.uuidAndName(ws, "Logical_Switch", ws.uuids("Logical_Switch"));
    }

    /**
     * {@code ovn-nbctl lsp-list SWITCH}.
     *
     * @param sw the switch
     * @return the output
     */
    public String lspList(String sw) {
        List<UUID> ports = new ArrayList<>();
        ws.set("Logical_Switch", ls(sw, true), "ports").forEach(o -> ports.add((UUID) o));
        return Listings.uuidAndName(ws, "Logical_Switch_Port", ports);
    }

    /**
     * {@code ovn-nbctl lr-list}.
     *
     * @return the output
     */
    public String lrList() {
        return Listings.uuidAndName(ws, "Logical_Router", ws.uuids("Logical_Router"));
    }

    /**
     * {@code ovn-nbctl lrp-list ROUTER}.
     *
     * @param router the router
     * @return the output
     */
    public String lrpList(String router) {
        List<UUID> ports = new ArrayList<>();
        ws.set("Logical_Router", lr(router, true), "ports").forEach(o -> ports.add((UUID) o));
        return Listings.uuidAndName(ws, "Logical_Router_Port", ports);
    }

    /**
     * {@code ovn-nbctl lr-nat-list ROUTER}.
     *
     * @param router the router
     * @return the output
     */
    public String lrNatList(String router) {
        return Listings.nats(ws, lr(router, true));
    }

    /**
     * {@code ovn-nbctl [--route-table=TABLE] lr-route-list ROUTER}.
     *
     * @param router the router
     * @param routeTable the route table, or null for all
     * @return the output
     */
    public String lrRouteList(String router, String routeTable) {
        return Listings.routes(ws, lr(router, true), routeTable);
    }

    /**
     * {@code ovn-nbctl [--type=TYPE] acl-list ENTITY}.
     *
     * @param entity a switch or port group
     * @param type {@code --type}, or null
     * @return the output
     */
    public String aclList(String entity, String type) {
        UUID[] owner = aclOwner(entity, type);
        return Listings.acls(ws, owner[0] != null ? "Port_Group" : "Logical_Switch", owner[0] != null ? owner[0] : owner[1]);
    }

    /**
     * {@code ovn-nbctl lb-list [LB]}.
     *
     * @param name a load balancer name, or null for all
     * @return the output
     */
    public String lbList(String name) {
        List<UUID> lbs = new ArrayList<>();
        for (UUID u : ws.uuids("Load_Balancer")) {
            if (name == null || name.equals(ws.string("Load_Balancer", u, "name"))) {
                lbs.add(u);
            }
        }
        return Listings.loadBalancers(ws, lbs);
    }

    /**
     * {@code ovn-nbctl ls-lb-list SWITCH}.
     *
     * @param sw the switch
     * @return the output
     */
    public String lsLbList(String sw) {
        List<UUID> lbs = new ArrayList<>();
        ws.set("Logical_Switch", ls(sw, true), "load_balancer").forEach(o -> lbs.add((UUID) o));
        return Listings.loadBalancers(ws, lbs);
    }

    /**
     * {@code ovn-nbctl lr-lb-list ROUTER}.
     *
     * @param router the router
     * @return the output
     */
    public String lrLbList(String router) {
        List<UUID> lbs = new ArrayList<>();
        ws.set("Logical_Router", lr(router, true), "load_balancer").forEach(o -> lbs.add((UUID) o));
        return Listings.loadBalancers(ws, lbs);
    }

    /**
     * The port getters of ovn-nbctl: {@code lsp-get-parent}, {@code -tag}, {@code -addresses},
     * {@code -port-security}, {@code -up}, {@code -enabled}, {@code -type}, {@code -options}, and
     * {@code lrp-get-gateway-chassis}, printed as ovn-nbctl prints them.
     *
     * @param command the ovn-nbctl command name
     * @param port the port, name or UUID
     * @return the output
     */
    public String portGet(String command, String port) {
        String t = "Logical_Switch_Port";
        if (command.equals("lrp-get-gateway-chassis")) {
            UUID p = lrp(port, true);
            List<UUID> gcs = new ArrayList<>();
            ws.set("Logical_Router_Port", p, "gateway_chassis").forEach(o -> gcs.add((UUID) o));
            gcs.sort(java.util.Comparator.<UUID, Long>comparing(g -> -(Long) ws.get("Gateway_Chassis", g, "priority"))
                    .thenComparing(g -> ws.string("Gateway_Chassis", g, "name"), java.util.Comparator.reverseOrder()));
            StringBuilder out = new StringBuilder();
            for (UUID g : gcs) {
                out.append(ws.string("Gateway_Chassis", g, "name")).append(' ')
                        .append(Listings.right(ws.get("Gateway_Chassis", g, "priority").toString(), 5)).append('\n');
            }
            return out.toString();
        }
        UUID p = lsp(port, true);
        switch (command) {
            case "lsp-get-parent" -> {
                Object v = ws.optional(t, p, "parent_name");
                return v == null ? "" : v + "\n";
            }
            case "lsp-get-tag" -> {
                Object v = ws.optional(t, p, "tag");
                return v == null ? "" : v + "\n";
            }
            case "lsp-get-up" -> {
                return (Boolean.TRUE.equals(ws.optional(t, p, "up")) ? "up" : "down") + "\n";
            }
            case "lsp-get-enabled" -> {
                return (Boolean.FALSE.equals(ws.optional(t, p, "enabled")) ? "disabled" : "enabled") + "\n";
            }
            case "lsp-get-type" -> {
                return ws.string(t, p, "type") + "\n";
            }
            case "lsp-get-options" -> {
                StringBuilder out = new StringBuilder();
                DatumSyntax.sortedEntries(ws.map(t, p, "options"))
                        .forEach(e -> out.append(e.getKey()).append('=').append(e.getValue()).append('\n'));
                return out.toString();
            }
            case "lsp-get-port-security" -> {
                StringBuilder out = new StringBuilder();
                DatumSyntax.sorted(ws.set(t, p, "port_security")).forEach(a -> out.append(a).append('\n'));
                return out.toString();
            }
            case "lsp-get-addresses" -> {
                Set<Object> addresses = ws.set(t, p, "addresses");
                Object routerPort = ws.map(t, p, "options").get("router-port");
                if (addresses.size() == 1 && addresses.contains("router") && routerPort != null) {
                    UUID lrp = lrp(routerPort.toString(), false);
                    if (lrp != null) {
                        StringBuilder out = new StringBuilder(ws.string("Logical_Router_Port", lrp, "mac"));
                        DatumSyntax.sorted(ws.set("Logical_Router_Port", lrp, "networks")).forEach(n -> out.append(' ').append(n));
                        return out.append('\n').toString();
                    }
                }
                StringBuilder out = new StringBuilder();
                DatumSyntax.sorted(addresses).forEach(a -> out.append(a).append('\n'));
                return out.toString();
            }
            default -> throw new NbctlException("unknown command '" + command + "'; use --help for help");
        }
    }

    // ---- commit ----

    /**
     * The operations this list sends.
     *
     * @return the operations, empty when the list changed nothing
     */
    public List<Operation> operations() {
        return ws.operations();
    }

    /**
     * Sends the list's net effect as one transaction (none when it changed nothing).
     *
     * @return the result, with the real UUIDs of inserted rows
     */
    public CompletableFuture<Committed> commit() {
        List<Operation> ops = ws.operations();
        Map<String, UUID> provisional = ws.insertedNames();
        if (ops.isEmpty()) {
            return CompletableFuture.completedFuture(new Committed(Map.of()));
        }
        // ovn-nbctl's create of a non-root row without --id sends the insert all the same (the server
        // drops the row at commit); the list leaves what ovn-nbctl leaves, so the client's refusal of
        // such inserts is lifted here. Every other command refers to the rows it inserts.
        Transaction.Builder tx = client.transaction().allowUnreferencedInserts();
        ops.forEach(tx::add);
        return client.transact(tx.build()).thenApply(result -> {
            Map<UUID, UUID> real = new LinkedHashMap<>();
            provisional.forEach((name, uuid) -> {
                UUID r = result.namedUuids().get(name);
                if (r != null) {
                    real.put(uuid, r);
                }
            });
            return new Committed(Map.copyOf(real));
        });
    }

    /**
     * {@link #commit()}, waiting at most {@code timeout}.
     *
     * @param timeout the bound
     * @return the result
     */
    public Committed commitAndWait(Duration timeout) {
        CompletableFuture<Committed> f = commit();
        try {
            return f.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(false);
            throw new java.util.concurrent.CompletionException(new java.util.concurrent.TimeoutException(
                    "no answer to the transaction within " + timeout));
        } catch (java.util.concurrent.ExecutionException e) {
            throw new java.util.concurrent.CompletionException(dev.ovnj.ovsdb.Futures.unwrap(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    /**
     * A committed list: the real UUIDs of the rows it inserted, by their provisional UUIDs (the
     * ones earlier listings of the list printed).
     *
     * @param realUuids real UUID by provisional UUID
     */
    public record Committed(Map<UUID, UUID> realUuids) {
        /**
         * Replaces provisional UUIDs in a text by the real ones.
         *
         * @param text output printed before the commit
         * @return the text as after the commit
         */
        public String resolve(String text) {
            String out = text;
            for (Map.Entry<UUID, UUID> e : realUuids.entrySet()) {
                out = out.replace(e.getKey().toString(), e.getValue().toString());
            }
            return out;
        }
    }
}
