# Writes honeycomb_vtk51_{ascii,binary}.vtk: the bundled honeycomb (data/meshes/honeycomb.vtk, 14
# hexagonal prisms as VTK polyhedra, type 42) read and written by VTK's own legacy reader and
# writer, which write version 5.1 files. tests/solids/volume_io.cpp reads them as the reference
# for polyhedra in version 5 legacy files. Needs VTK's Python module (Debian: python3-vtk9; run
# by /usr/bin/python3 where another python3 comes first on PATH):
#   python3 tests/solids/data/vtk51_honeycomb.py
import os

import vtk

here = os.path.dirname(os.path.abspath(__file__))
reader = vtk.vtkUnstructuredGridReader()
reader.SetFileName(os.path.join(here, "..", "..", "..", "data", "meshes", "honeycomb.vtk"))
reader.Update()
for name, binary in (("ascii", False), ("binary", True)):
    writer = vtk.vtkUnstructuredGridWriter()
    writer.SetInputData(reader.GetOutput())
    writer.SetFileName(os.path.join(here, f"honeycomb_vtk51_{name}.vtk"))
    writer.SetHeader(f"data/meshes/honeycomb.vtk written by VTK {vtk.vtkVersion.GetVTKVersion()}")
    if binary:
        writer.SetFileTypeToBinary()
    writer.Write()
