import pytest

from hippodrome.turfmaster.course import load_course


@pytest.fixture(scope="session")
def oval():
    return load_course("oval")


@pytest.fixture(scope="session")
def triangle():
    return load_course("triangle")
