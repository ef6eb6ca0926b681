package dev.dra.sidecar.api.body;

import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.model.NetworkDeviceData;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.Served;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The metadata of the selected devices as POSIX shell variable assignments, one {@code export NAME='value'} per line,
 * for {@code eval "$(curl -s ...)"} or {@code . ./file}: exported, so that a program the shell starts afterwards
 * ({@code exec python app.py}) sees them in its environment.
 *
 * <p>Names: {@code DRA_<CLAIM>_<REQUEST>_<DEVICE>_<ATTRIBUTE>}, each part the name with ASCII letters upper-cased,
 * ASCII digits kept and every other character (each code point) made {@code _}; the network data of a device is
 * {@code NETWORKDATA_INTERFACENAME}, {@code NETWORKDATA_IPS} and {@code NETWORKDATA_HARDWAREADDRESS} in place of the
 * attribute. Values: the attribute's text items joined with {@code ,} (a scalar is its one item), the addresses
 * joined with {@code ,}. Every value is in single quotes, each {@code '} in it written {@code '\''}: the shell takes
 * everything between the quotes as data, so no value can run a command or assign another variable. Two values that
 * would get one name are refused with {@code 409 env-name-collision}, never one silently winning; a value with a NUL
 * character, which no shell variable can hold, with {@code 409 env-value-unrepresentable}.
 */
public final class EnvFile {

    private EnvFile() {}

    public static Served.Available text(DeviceSelection selection) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        for (DeviceSelection.Selected s : selection.devices()) {
            String prefix = "DRA_" + part(s.claim()) + '_' + part(s.request()) + '_' + part(s.device().name()) + '_';
            String device = "device " + PathNames.quote(s.device().name()) + " of driver " + s.device().driver();
            for (Map.Entry<String, AttributeValue> a : s.device().attributes().entrySet()) {
                put(values, origins, prefix + part(a.getKey()), String.join(",", AttributeText.of(a.getValue()).lines()),
                        device + ", attribute " + PathNames.quote(a.getKey()));
            }
            NetworkDeviceData network = s.device().networkData();
            if (network != null) {
                String origin = device + ", networkData.";
                if (network.interfaceName() != null) {
                    put(values, origins, prefix + "NETWORKDATA_INTERFACENAME", network.interfaceName(), origin + "interfaceName");
                }
                if (network.ips() != null) {
                    put(values, origins, prefix + "NETWORKDATA_IPS", String.join(",", network.ips()), origin + "ips");
                }
                if (network.hardwareAddress() != null) {
                    put(values, origins, prefix + "NETWORKDATA_HARDWAREADDRESS", network.hardwareAddress(),
                            origin + "hardwareAddress");
                }
            }
        }
        StringBuilder text = new StringBuilder();
        values.forEach((name, value) -> text.append("export ").append(name).append('=').append(quote(value))
                .append('\n'));
        return DerivedBodies.text(text.toString(), selection);
    }

    /** A name part: ASCII letters upper-cased, ASCII digits kept, every other code point {@code _}. */
    static String part(String name) {
        StringBuilder out = new StringBuilder(name.length());
        name.codePoints().forEach(c -> out.append(c < 128 && Character.isLetterOrDigit(c)
                ? Character.toUpperCase((char) c) : '_'));
        return out.toString();
    }

    /** The value in POSIX single quotes: nothing between them is special to the shell but {@code '} itself. */
    static String quote(String value) {
        return '\'' + value.replace("'", "'\\''") + '\'';
    }

    private static void put(Map<String, String> values, Map<String, String> origins, String name, String value,
            String origin) {
        String earlier = origins.putIfAbsent(name, origin);
        if (earlier != null) {
            throw new ApiException(ProblemType.ENV_NAME_COLLISION, name + " would be the name of both " + earlier
                    + " and " + origin + "; select fewer devices with ?driver= and/or ?pool=, or read the JSON routes");
        }
        if (value.indexOf('\0') >= 0) {
            throw new ApiException(ProblemType.ENV_VALUE_UNREPRESENTABLE, "the value of " + origin + " (" + name
                    + ") has a NUL character, which no shell variable can hold; read it from the JSON routes");
        }
        values.put(name, value);
    }
}
