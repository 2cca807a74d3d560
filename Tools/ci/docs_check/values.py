"""The values sextantctl passes to the daemon unchecked (a status, a prompt choice, a GNSS
profile, a zone): its parser accepts any word there, the daemon refuses a wrong one. Each
is checked here against what the daemon accepts: the protocol's names, sextantd's own
--gnss-profile check, the system's tzdata."""
import json
import os
import re
import subprocess

from .common import read

_TREE = {}


def _protocol(name):
    text = read("clients/python/src/sextant/_protocol.py")
    return set(re.search(name + r" = \(([^)]*)\)", text).group(1).replace('"', "").replace(" ", "").strip(",").split(","))


def _tree(bin_dir):
    if not _TREE:
        dump = subprocess.run([os.path.join(bin_dir, "sextantctl"), "--experimental-dump-help"],
                              capture_output=True, text=True, check=True).stdout
        _TREE["sextantctl"] = json.loads(dump)["command"]
    return _TREE["sextantctl"]


def positionals(bin_dir, words):
    """(subcommand path, positional words) of a sextantctl command line, options dropped."""
    node, path, rest, index = _tree(bin_dir), [], [], 0
    while index < len(words):
        word = words[index]
        subs = {s["commandName"]: s for s in node.get("subcommands", [])}
        if word in subs and not rest:
            node = subs[word]
            path.append(word)
        elif word == "--":
            rest.extend(words[index + 1:])
            break
        elif word.startswith("-") and not re.fullmatch(r"-[\d.]+", word):
            takes_value = any(a["kind"] == "option" and any("-" * (1 if n["kind"] == "short" else 2) + n["name"] == word.split("=")[0]
                                                              for n in a.get("names", [])) for a in node.get("arguments", []))
            index += 1 if takes_value and "=" not in word else 0
        else:
            rest.append(word)
        index += 1
    return tuple(path), rest


def _gnss_profile_refused(bin_dir, spec):
    if spec == "off":
        return None
    result = subprocess.run([os.path.join(bin_dir, "sextantd"), "--gnss-profile", spec], capture_output=True, text=True,
                            env=dict(os.environ, SEXTANT_PARSE_ONLY="1"))
    return result.stderr.strip().split("\n")[0] if result.returncode else None


def value_problem(bin_dir, words):
    """What the daemon would refuse in a sextantctl command line, or None."""
    path, values = positionals(bin_dir, words)
    statuses = _protocol("AUTHORIZATION_STATUSES")
    choices = _protocol("PROMPT_CHOICES")
    if path == ("permissions", "set") and len(values) >= 2 and values[1] not in statuses:
        return f"{values[1]} is no authorization status ({', '.join(sorted(statuses))})"
    if path == ("prompts", "policy") and values and values[0] not in choices | {"ask"}:
        return f"{values[0]} is neither ask nor a prompt choice"
    if path == ("prompts", "answer") and values and values[-1] not in choices:
        return f"{values[-1]} is no prompt choice ({', '.join(sorted(choices))})"
    if path == ("watch",):
        events = set(re.findall(r'^EVENT_\w+ = "([^"]+)"', read("clients/python/src/sextant/_protocol.py"), re.M))
        topics = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--topic"] + [w.split("=", 1)[1] for w in words if w.startswith("--topic=")]
        unknown = [t for t in topics if t not in events]
        if unknown:
            return f"{', '.join(unknown)}: no event of the protocol (a watch topic is an event's name)"
    if path == ("gnss", "profile") and values:
        return _gnss_profile_refused(bin_dir, values[0])
    if path == ("time", "zone", "set") and values and values[0] != "auto" and not os.path.isfile(
            os.path.join("/usr/share/zoneinfo", values[0])):
        return f"{values[0]} is no zone of the system's tzdata"
    return None
