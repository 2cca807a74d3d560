"""The PEP 517 build backend of the sextant package: the standard library only.

Why not setuptools: before 70.1, setuptools' ``build_meta`` builds a wheel through the
``wheel`` package, which many Pythons lack (``invalid command 'bdist_wheel'``), and it
builds in the source tree (``build/``, ``*.egg-info``). This backend needs nothing to be
installed or downloaded, so ``pip install ./clients/python`` works offline with any
Python 3.9 or later, with or without build isolation, and it writes only where pip asks
(the wheel or sdist directory). It reads the ``[project]`` table of pyproject.toml (the
subset of TOML that file uses: tables, strings, arrays of strings, inline tables) and
packs ``src/sextant``.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PACKAGE = "sextant"


def _parse_value(text):
    """A TOML string, array of strings or inline table of strings, as this file writes them."""
    text = text.strip()
    if text.startswith('"'):
        return re.match(r'"((?:[^"\\]|\\.)*)"', text).group(1).replace('\\"', '"').replace("\\\\", "\\")
    if text.startswith("["):
        return [_parse_value(item) for item in re.findall(r'"(?:[^"\\]|\\.)*"', text)]
    if text.startswith("{"):
        return {key: _parse_value(value) for key, value in re.findall(r'(\w[\w-]*)\s*=\s*("(?:[^"\\]|\\.)*")', text)}
    raise ValueError("pyproject.toml: unsupported value: " + text)


def read_pyproject(path=None):
    """pyproject.toml as nested dicts (tables by their dotted names)."""
    tables = {}
    table = tables
    pending = None
    with open(path or os.path.join(_ROOT, "pyproject.toml"), encoding="utf-8") as file:
        for line in file:
            if pending is not None:
                pending[1].append(line)
                if line.strip().startswith("]"):
                    table[pending[0]] = _parse_value("".join(pending[1]))
                    pending = None
                continue
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            header = re.match(r"^\[([\w.-]+)\]$", stripped)
            if header:
                table = tables
                for part in header.group(1).split("."):
                    table = table.setdefault(part, {})
                continue
            key, _, value = stripped.partition("=")
            key, value = key.strip(), value.strip()
            if value.startswith("[") and not value.endswith("]"):
                pending = (key, [value])
            else:
                table[key] = _parse_value(value)
    return tables


def _project():
    return read_pyproject()["project"]


def _dist_name():
    project = _project()
    return "%s-%s" % (project["name"].replace("-", "_"), project["version"])


def _metadata():
    project = _project()
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + project["name"],
        "Version: " + project["version"],
        "Summary: " + project["description"],
        "Requires-Python: " + project["requires-python"],
        "License: " + project.get("license", {}).get("text", ""),
    ]
    lines += ["Classifier: " + classifier for classifier in project.get("classifiers", [])]
    with open(os.path.join(_ROOT, project["readme"]), encoding="utf-8") as readme:
        lines += ["Description-Content-Type: text/markdown", "", readme.read()]
    return "\n".join(lines)


def _entry_points():
    groups = _project().get("entry-points", {})
    text = ""
    for group in sorted(groups):
        text += "[%s]\n" % group + "".join("%s = %s\n" % item for item in sorted(groups[group].items())) + "\n"
    return text


def _package_files():
    """(path in the wheel, path on disk) for every file of src/sextant, bytecode left out."""
    source = os.path.join(_ROOT, "src")
    found = []
    for directory, subdirectories, files in os.walk(os.path.join(source, _PACKAGE)):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith((".pyc", ".pyo")):
                path = os.path.join(directory, name)
                found.append((os.path.relpath(path, source).replace(os.sep, "/"), path))
    return found


def _dist_info_files():
    return {
        "METADATA": _metadata(),
        "WHEEL": "Wheel-Version: 1.0\nGenerator: sextant_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "entry_points.txt": _entry_points(),
    }


class _Wheel:
    """A wheel being written, with its RECORD."""

    def __init__(self, directory, name):
        self.name = name
        self.archive = zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED)
        self.record = []

    def add(self, path, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.archive.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.record.append("%s,sha256=%s,%d" % (path, digest, len(data)))

    def close(self, dist_info):
        for name, text in _dist_info_files().items():
            self.add(dist_info + "/" + name, text)
        self.archive.writestr(dist_info + "/RECORD", "\n".join(self.record + [dist_info + "/RECORD,,"]) + "\n")
        self.archive.close()
        return self.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    wheel = _Wheel(wheel_directory, _dist_name() + "-py3-none-any.whl")
    for path, disk in _package_files():
        with open(disk, "rb") as file:
            wheel.add(path, file.read())
    return wheel.close(_dist_name() + ".dist-info")


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: a wheel holding a .pth that puts src/ on the path."""
    wheel = _Wheel(wheel_directory, _dist_name() + "-0.editable-py3-none-any.whl")
    wheel.add("__editable__.%s.pth" % _PACKAGE, os.path.join(_ROOT, "src") + "\n")
    return wheel.close(_dist_name() + ".dist-info")


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = _dist_name() + ".dist-info"
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    for name, text in _dist_info_files().items():
        with open(os.path.join(metadata_directory, dist_info, name), "w", encoding="utf-8") as file:
            file.write(text)
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_sdist(sdist_directory, config_settings=None):
    name = _dist_name()
    files = [("pyproject.toml", os.path.join(_ROOT, "pyproject.toml")), ("README.md", os.path.join(_ROOT, "README.md"))]
    files.append(("backend/sextant_backend.py", os.path.abspath(__file__)))
    files += [("src/" + path, disk) for path, disk in _package_files()]
    with tarfile.open(os.path.join(sdist_directory, name + ".tar.gz"), "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path, disk in files:
            archive.add(disk, arcname=name + "/" + path, recursive=False)
        metadata = ("PKG-INFO", _metadata().encode("utf-8"))
        info = tarfile.TarInfo(name + "/" + metadata[0])
        info.size = len(metadata[1])
        archive.addfile(info, io.BytesIO(metadata[1]))
    return name + ".tar.gz"


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_editable = get_requires_for_build_wheel
get_requires_for_build_sdist = get_requires_for_build_wheel
